/**
 * Recorded answers of the real service, for tests whose oracle must not be the code under test: a
 * recording proxy between a client and the service keeps every answer, keyed by the call it answered
 * (operation and parameters; the credentials left out); a replay service answers the same calls with
 * the same bytes. Recordings are folders of one .xml file per answer and an index.json.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SERVICE_PATH, detectBinding, parseRequest } from '../../src-shared/wire';

export interface Exchange {
  /** The call it answers: `TransactionListLast50_2 {"AccountId":1}`. */
  call: string;
  status: number;
  contentType: string;
  body: string;
}

export interface Recording {
  namespace: string;
  exchanges: Exchange[];
}

/** The call an HTTP request makes, as the service reads it. */
function callOf(req: http.IncomingMessage, body: string, namespace: string): string {
  const url = new URL(req.url ?? '/', 'http://x');
  const op = url.pathname.startsWith(`${SERVICE_PATH}/`) ? url.pathname.slice(SERVICE_PATH.length + 1) : undefined;
  const incoming = {
    method: req.method ?? 'GET',
    ...(op !== undefined ? { pathOperation: op } : {}),
    query: url.search.slice(1),
    contentType: req.headers['content-type'] ?? '',
    soapAction: typeof req.headers.soapaction === 'string' ? req.headers.soapaction : '',
    body,
  };
  const call = parseRequest(detectBinding(incoming), incoming, { namespace, timeZone: 'UTC' });
  return `${call.operation} ${JSON.stringify(call.params)}`;
}

async function bodyOf(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: http.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A proxy in front of `target` that keeps each answer (the last one per call). */
export async function startRecordingProxy(
  target: string,
  namespace: string,
): Promise<{ url: string; take(): Recording; close(): Promise<void> }> {
  const answers = new Map<string, Exchange>();
  const server = http.createServer(async (req, res) => {
    const body = await bodyOf(req);
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'soapaction']) {
      const v = req.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
    const answer = await fetch(target + (req.url ?? '/'), {
      method: req.method ?? 'GET',
      headers,
      ...(req.method === 'GET' ? {} : { body }),
    });
    const exchange = {
      call: callOf(req, body, namespace),
      status: answer.status,
      contentType: answer.headers.get('content-type') ?? '',
      body: await answer.text(),
    };
    answers.set(exchange.call, exchange);
    res.writeHead(exchange.status, { 'content-type': exchange.contentType });
    res.end(exchange.body);
  });
  const url = await listen(server);
  return {
    url,
    take() {
      const exchanges = [...answers.values()].sort((a, b) => (a.call < b.call ? -1 : a.call > b.call ? 1 : 0));
      answers.clear();
      return { namespace, exchanges };
    },
    close: () => close(server),
  };
}

/** A service that answers exactly the recorded calls with the recorded bytes; any other call gets HTTP 500 naming it. */
export async function startReplayService(
  recording: Recording,
): Promise<{ url: string; namespace: string; asked: string[]; close(): Promise<void> }> {
  const byCall = new Map(recording.exchanges.map((e) => [e.call, e]));
  const asked: string[] = [];
  const server = http.createServer(async (req, res) => {
    const call = callOf(req, await bodyOf(req), recording.namespace);
    asked.push(call);
    const answer = byCall.get(call);
    if (!answer) {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`Not recorded: ${call}`);
      return;
    }
    res.writeHead(answer.status, { 'content-type': answer.contentType });
    res.end(answer.body);
  });
  return { url: await listen(server), namespace: recording.namespace, asked, close: () => close(server) };
}

/** `TransactionListLast50_2 {"AccountId":1}` -> `TransactionListLast50_2.AccountId-1.xml` */
const fileOf = (call: string) => {
  const [operation, params] = [call.slice(0, call.indexOf(' ')), JSON.parse(call.slice(call.indexOf(' ') + 1)) as Record<string, unknown>];
  return `${[operation, ...Object.entries(params).map(([k, v]) => `${k}-${String(v)}`)].join('.')}.xml`;
};

export function writeRecording(dir: string, recording: Recording): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const index = recording.exchanges.map(({ call, status, contentType }) => ({ call, status, contentType, file: fileOf(call) }));
  for (const e of recording.exchanges) writeFileSync(join(dir, fileOf(e.call)), e.body);
  writeFileSync(join(dir, 'index.json'), `${JSON.stringify({ namespace: recording.namespace, exchanges: index }, null, 2)}\n`);
}

export function readRecording(dir: string): Recording {
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as {
    namespace: string;
    exchanges: (Omit<Exchange, 'body'> & { file: string })[];
  };
  const files = new Set(readdirSync(dir));
  return {
    namespace: index.namespace,
    exchanges: index.exchanges.map(({ file, ...e }) => {
      if (!files.has(file)) throw new Error(`The recording in ${dir} lacks ${file}.`);
      return { ...e, body: readFileSync(join(dir, file), 'utf8') };
    }),
  };
}
