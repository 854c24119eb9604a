/**
 * One server of the service benchmark, each in a process of its own (forked by bench/service.bench.ts),
 * so that no server shares an event loop, a heap or a garbage collector with another server, the load
 * generator or the benchmark's own bookkeeping. "ours" is not started here: it runs as the command
 * line's `serve`, exactly as an operator runs it. This script starts the others:
 *
 * - `ours-uncached`: `startService` with the options `serve` uses, its cache of answers off;
 * - `bare`: a bare Node HTTP server that reads the request and answers one recorded response; `paced`, it
 *   first keeps the CPU busy for as many microseconds as the parent last asked over IPC (`{ spinUs }`,
 *   answered once set): the bare server at another server's rate, its own cost measured there; `atTurnEnd`,
 *   it writes its answers at the end of the event loop's turn, as the service writes those of reads
 *   (src-service/server/answer.ts);
 * - `soap`: the `soap` package's own server on our WSDL, its handlers calling our operation code on the
 *   same data file.
 *
 * The parent sends one `ServerJob` over IPC; the child answers `{ url }` once it listens and runs until
 * it gets SIGTERM (it then closes and exits 0, so that a `--cpu-prof` profile is written).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as soap from 'soap';
import { startService, stderrLogger } from '../../src-service';
import { runOperation } from '../../src-service/operations';
import { writeAtTurnEnd, type Answer } from '../../src-service/server/answer';
import { Store, runNow } from '../../src-service/store';
import { CLIENT_KEY_PARAM, LOGIN_PARAM, type OperationName } from '../../src-shared/catalog';
import { SERVICE_PATH, formatWall, instantToWall, localTimeZone } from '../../src-shared/wire';

export type ServerJob =
  | { kind: 'ours-uncached'; dataFile: string; timeZone: string }
  | { kind: 'bare'; body: string; contentType: string; paced?: boolean; atTurnEnd?: boolean }
  | { kind: 'soap'; dataFile: string; timeZone: string; wsdl: string };

function listening(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/** What the parent sets a paced bare server's busy wait to. */
export interface Pace {
  spinUs: number;
}

/** Keeps the CPU busy for `us` microseconds of the clock (a server's work, without its kind of work). */
function busyFor(us: number): void {
  const until = performance.now() + us / 1000;
  while (performance.now() < until);
}

/**
 * A bare server: reads the request, answers `body`; paced, after a busy wait the parent sets; at the turn's
 * end, by the service's own `writeAtTurnEnd` (its answer a buffer, as the service's are).
 */
async function bareServer(
  body: string,
  contentType: string,
  o: { paced?: boolean; atTurnEnd?: boolean },
): Promise<{ url: string; close: () => Promise<void> }> {
  let spinUs = 0;
  const encoded = Buffer.from(body, 'utf8');
  const ready: Answer = { status: 200, headers: { 'Content-Type': contentType, 'Content-Length': encoded.length }, payload: encoded };
  const server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      if (spinUs > 0) busyFor(spinUs);
      if (o.atTurnEnd) return writeAtTurnEnd(res, ready);
      res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  if (o.paced) {
    process.on('message', (pace: Pace) => {
      spinUs = pace.spinUs;
      process.send!(pace);
    });
  }
  return { url: await listening(server), close: () => closeServer(server) };
}

/** The soap package's server on our WSDL; each handler runs our operation on the same store, as the login named. */
async function soapPackageServer(dataFile: string, wsdl: string, timeZone: string): Promise<{ url: string; close: () => Promise<void> }> {
  const store = Store.open(dataFile);
  const number = (v: unknown) => Number(v);
  const paramsOf: Partial<Record<OperationName, (a: Record<string, unknown>) => object>> = {
    AccountListWithAmount2: () => ({}),
    TransactionListLast50_2: (a) => ({ AccountId: number(a.AccountId) }),
    AddTranferToOtherAccount: (a) => ({
      Amount: number(a.Amount),
      Description: String(a.Description ?? ''),
      Id_SourceAccount: number(a.Id_SourceAccount),
      Id_TargetAccount: number(a.Id_TargetAccount),
      Id_Category: number(a.Id_Category),
      // The soap package reads a dateTime into a Date, in this process's zone: back to the wall clock.
      PaymentDate:
        a.PaymentDate instanceof Date
          ? formatWall(instantToWall(a.PaymentDate.getTime(), localTimeZone()))
          : String(a.PaymentDate).slice(0, 19),
    }),
  };
  const records: Partial<Record<OperationName, string>> = {
    AccountListWithAmount2: 'apiAccount2',
    TransactionListLast50_2: 'apiTransaction2',
  };
  const handler = (operation: OperationName) => (args: Record<string, unknown>) => {
    const login = String(args[LOGIN_PARAM]);
    const credentials = { clientKey: String(args[CLIENT_KEY_PARAM]), login, password: String(args.userPassword ?? args.UserPassword) };
    const ctx = { store, user: store.users.byLogin(login)!, timeZone, now: Date.now };
    const params = paramsOf[operation]!(args);
    const result = store.write(() => runNow(runOperation({ operation, credentials, params } as never, ctx)));
    const record = records[operation];
    return { [`${operation}Result`]: record ? { Data: { [record]: result } } : result };
  };
  const port = Object.fromEntries(Object.keys(paramsOf).map((op) => [op, handler(op as OperationName)]));
  const server = createServer({ keepAliveTimeout: 30_000 });
  soap.listen(server, SERVICE_PATH, { APIservice: { APIserviceSoap: port, APIserviceSoap12: port } }, wsdl);
  const url = await listening(server);
  return {
    url,
    close: async () => {
      await closeServer(server);
      store.close();
    },
  };
}

async function start(job: ServerJob): Promise<{ url: string; close: () => Promise<void> }> {
  switch (job.kind) {
    case 'ours-uncached': {
      // The options of `serve` (src-service/cli/commands/serve.ts), and no cache of answers.
      const service = await startService({
        dataFile: job.dataFile,
        port: 0,
        timeZone: job.timeZone,
        logger: stderrLogger,
        responseCache: false,
      });
      return { url: service.url, close: () => service.close({ graceMs: 5000 }) };
    }
    case 'bare':
      return bareServer(job.body, job.contentType, job);
    case 'soap':
      return soapPackageServer(job.dataFile, job.wsdl, job.timeZone);
  }
}

process.once('message', (job: ServerJob) => {
  start(job).then(
    ({ url, close }) => {
      process.once('SIGTERM', () => {
        close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      });
      // Nothing more comes over IPC but a paced server's pace: else the channel goes, so that this process holds its server alone.
      process.send!({ url }, () => {
        if (!(job.kind === 'bare' && job.paced)) process.disconnect();
      });
    },
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
});
