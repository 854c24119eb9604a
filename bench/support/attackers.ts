/**
 * The attackers of the one-client benchmark (bench/one-client.bench.ts), each a process of its own so that
 * neither shares an event loop with the server, the measured client or the other:
 *
 * - `hold`: keeps `connections` keep-alive connections open from each of `addresses`: each asks for the
 *   HTML page once and then sits idle, asking again every 15 s (before the service's 30 s idle timeout);
 *   a connection that is reset, refused or closed is opened again after `retryMs`.
 * - `flood`: `concurrency` calls at once from `address`, each with a login of its own drawn at random
 *   (seeded) and a wrong password, the next sent as soon as the last is answered, a 503 too (an attacker
 *   does not wait for Retry-After); after a failed connection, 100 ms later.
 *
 * The parent sends one AttackJob over IPC; on 'report' the child answers its AttackReport and goes on; on
 * 'stop' it reports, stops and exits.
 */
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { seededRandom } from '../../src-service/admin/seeded-random';
import { buildRequest } from '../../src-shared/wire';

export type AttackJob =
  | { kind: 'hold'; host: string; port: number; addresses: string[]; connections: number; retryMs: number }
  | { kind: 'flood'; host: string; port: number; address: string; concurrency: number; namespace: string; clientKey: string; seed: number };

export interface AttackReport {
  /** hold: connections open and answered now; flood: calls in flight. */
  holding: number;
  /** hold: connections opened in all; flood: calls sent. */
  attempts: number;
  /** hold: connections reset or closed by the service; flood: calls answered 503 (try again). */
  turnedAway: number;
  /** flood: calls answered with a verdict (Invalid credentials). */
  verdicts: number;
  /** Anything else: failed connections, unexpected answers. */
  errors: number;
  /** CPU seconds this process used. */
  cpuSeconds: number;
}

const report: AttackReport = { holding: 0, attempts: 0, turnedAway: 0, verdicts: 0, errors: 0, cpuSeconds: 0 };
let stopping = false;
const sockets = new Set<Socket>();

/** One held connection from `address`: opened, answered once, asked again now and then; opened anew when lost. */
function hold(job: Extract<AttackJob, { kind: 'hold' }>, address: string): void {
  if (stopping) return;
  report.attempts += 1;
  const socket = connect({ host: job.host, port: job.port, localAddress: address });
  sockets.add(socket);
  let held = false;
  const ask = () => socket.write(`GET /API/APIservice.asmx HTTP/1.1\r\nHost: ${job.host}\r\n\r\n`);
  const again = setInterval(ask, 15_000);
  socket.on('connect', ask);
  socket.on('data', () => {
    if (!held) report.holding += 1;
    held = true;
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    clearInterval(again);
    sockets.delete(socket);
    if (held) report.holding -= 1;
    report.turnedAway += 1;
    setTimeout(() => hold(job, address), job.retryMs);
  });
}

/** `concurrency` loops of calls with random logins, each sending its next call once the last is answered. */
function flood(job: Extract<AttackJob, { kind: 'flood' }>): void {
  const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency });
  const random = seededRandom(job.seed);
  const one = () =>
    new Promise<void>((resolve) => {
      const login = `flood-${Math.floor(random() * 1e12).toString(36)}`;
      const req = buildRequest(
        'soap12',
        { operation: 'AccountList2', credentials: { clientKey: job.clientKey, login, password: 'guess' }, params: {} },
        job.namespace,
      );
      report.attempts += 1;
      report.holding += 1;
      const r = request(
        { host: job.host, port: job.port, localAddress: job.address, agent, path: req.path, method: 'POST', headers: req.headers },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => {
            if (res.statusCode === 503) report.turnedAway += 1;
            else if (body.includes('Invalid credentials')) report.verdicts += 1;
            else report.errors += 1;
            resolve();
          });
        },
      );
      // A connection refused or reset: tried again after a moment, so that this process does not spin.
      r.on('error', () => {
        report.errors += 1;
        setTimeout(resolve, 100);
      });
      r.end(req.body);
    }).finally(() => (report.holding -= 1));
  const loop = async () => {
    while (!stopping) await one();
  };
  for (let k = 0; k < job.concurrency; k++) void loop();
}

function current(): AttackReport {
  const cpu = process.cpuUsage();
  return { ...report, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

// The benchmark gone (failed, interrupted): nobody is left to stop this.
process.on('disconnect', () => process.exit(0));

process.on('message', (m: AttackJob | 'report' | 'stop') => {
  if (m === 'report') return process.send!(current());
  if (m === 'stop') {
    stopping = true;
    const last = current();
    for (const s of sockets) s.destroy();
    return process.send!(last, () => process.exit(0));
  }
  if (m.kind === 'hold') for (const address of m.addresses) for (let k = 0; k < m.connections; k++) hold(m, address);
  else flood(m);
});
