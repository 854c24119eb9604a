/**
 * The SOAP client against the real service on loopback: every operation in every binding, connect()
 * reading the WSDL, and each typed error (fault, refused credentials, not sent, outcome unknown,
 * timeout, malformed, too large) produced by the service itself or by the fault proxy in front of it.
 */
import diagnostics from 'node:diagnostics_channel';
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FaultError,
  InvalidCredentialsError,
  MalformedResponseError,
  NetworkError,
  OutcomeUnknownError,
  ResponseTooLargeError,
  type SoapClient,
  TimeoutError,
  connect,
} from '../../src-main/core/soap-client';
import { nodeTransport } from '../../src-main/core/soap-client/transports/node';
import { addUser, TEST_HASH_PARAMS } from '../../src-service';
import { OPERATION_NAMES, type OperationName, type ParamsOf, type ResultOf } from '../../src-shared/catalog';
import type { Binding } from '../../src-shared/wire';
import { ANSWER_MS, DEMO, soapClient } from '../support/client';
import { startFaultProxy, type FaultMode, type FaultProxy } from '../support/fault-proxy';
import { startTestService, type TestService } from '../support/service';
import { settles } from '../support/until';

let service: TestService;
let proxy: FaultProxy;

beforeAll(async () => {
  service = await startTestService({ demo: true, namespace: 'urn:example:bookkeeping' });
  proxy = await startFaultProxy({ target: service.url, hugeBytes: 100 * 1024 * 1024 });
});
afterAll(async () => {
  await proxy.close();
  await service.close();
});

describe('connect() reads the WSDL', () => {
  it('takes targetNamespace and reports all 15 operations and the four bindings', async () => {
    const d = await connect(`${service.url}/API/APIservice.asmx?WSDL`);
    expect(d.baseUrl).toBe(service.url);
    expect(d.namespace).toBe('urn:example:bookkeeping');
    expect(d.operations).toEqual(OPERATION_NAMES);
    expect(d.missing).toEqual([]);
    expect(d.bindings).toEqual(['soap12', 'soap11', 'httpGet', 'httpPost']);
    expect(d.warnings).toEqual([]);
  });

  it('fails with a NetworkError when nothing listens', async () => {
    const stopped = await startTestService();
    const url = stopped.url;
    await stopped.close();
    await expect(connect(url, { timeoutMs: 1000 })).rejects.toBeInstanceOf(NetworkError);
  });
});

/** Every operation once, each checked for what it must have done; returns the operations called. */
async function exerciseAll(client: SoapClient, tag: string): Promise<OperationName[]> {
  const called: OperationName[] = [];
  const call = <N extends OperationName>(op: N, params: ParamsOf<N>): Promise<ResultOf<N>> => {
    called.push(op);
    return client.call(op, params);
  };
  const list2 = await call('AccountList2', {});
  expect(list2.length).toBeGreaterThan(3);
  const withAmount2 = await call('AccountListWithAmount2', {});
  const withAmount = await call('AccountListWithAmount', {});
  expect(withAmount.map((a) => a.Id)).toEqual(withAmount2.map((a) => a.Id));
  expect(withAmount.map((a) => a.Amount)).toEqual(withAmount2.map((a) => a.Amount));
  expect(withAmount2.every((a) => typeof a.IsHidden === 'boolean')).toBe(true);

  const wallet = withAmount2.find((a) => a.Currency === 203 && a.UserAccountPermission === 3 && a.IsActive && !a.Locked)!;
  const tx2 = await call('TransactionListLast50_2', { AccountId: wallet.Id });
  const tx1 = await call('TransactionListLast50', { AccountId: wallet.Id });
  expect(tx2.length).toBeGreaterThan(0);
  expect(tx1.map((t) => t.Amount)).toEqual(tx2.map((t) => t.Amount));
  expect(tx2.every((t) => t.Id > 0 && t.Id_Account === wallet.Id)).toBe(true);

  const templates = await call('DefineTransactionList', {});
  const templates2 = await call('DefineTransactionList2', {});
  expect(templates2.map((t) => t.Id)).toEqual(templates.map((t) => t.Id));
  const fuel = await call('CarFuelList', { CarId: 1 });
  expect(fuel.length).toBeGreaterThan(0);
  const tree = await call('CategoryTree', {});
  expect(tree.AllCategories.length).toBeGreaterThan(0);

  const added = await call('AddAccount', {
    Name: `Acc ${tag}`,
    Description: 'd & <e>',
    Currency: 203,
    Type: 1,
    IsActive: true,
    IsHidden: false,
    Locked: false,
    Ord: 7,
  });
  expect(added).toMatchObject({ Name: `Acc ${tag}`, Description: 'd & <e>', Currency: 203, Type: 1, Ord: 7, Amount: 0, IsHidden: false });
  const edited = await call('EditAccount', {
    Id_Account: added.Id,
    Name: `Acc ${tag} 2`,
    Description: '',
    Type: 2,
    IsActive: true,
    IsHidden: true,
    Locked: false,
    Ord: 8,
  });
  expect(edited).toMatchObject({ Id: added.Id, Name: `Acc ${tag} 2`, Type: 2, IsHidden: true, Ord: 8 });

  const pair = await call('AddTranferToOtherAccount', {
    Amount: 12.34,
    Description: `Transfer ${tag}`,
    Id_SourceAccount: wallet.Id,
    Id_TargetAccount: added.Id,
    Id_Category: 0,
    PaymentDate: '2026-03-01T10:15:00',
  });
  expect(pair.Transaction1).toMatchObject({
    Id_Account: wallet.Id,
    Amount: -12.34,
    PaymentDate: '2026-03-01T10:15:00',
    Description: `Transfer ${tag}`,
  });
  expect(pair.Transaction2).toMatchObject({ Id_Account: added.Id, Amount: 12.34 });
  const after = await client.call('AccountListWithAmount2', {});
  expect(after.find((a) => a.Id === added.Id)!.Amount).toBe(12.34);

  const withCategory = await call('AddCategory', { Name: `Cat ${tag}`, Id_ParentCategory: 0 });
  const cat = withCategory.AllCategories.find((c) => c.Name === `Cat ${tag}`)!;
  expect(cat.ChildCategories).toBeNull();
  const renamed = await call('EditCategory', { Id_Category: cat.Id, Name: `Cat ${tag} renamed` });
  expect(renamed.AllCategories.find((c) => c.Id === cat.Id)!.Name).toBe(`Cat ${tag} renamed`);

  const refuel = await call('EditCarFuel', {
    CarId: 2,
    Id_CarFuel: 0,
    Liter: 30.5,
    Price: 1200.4,
    Tachometer: 1000,
    DateOfPurchase: '2026-03-02T08:00:00',
    Currency: 203,
    Description: `Fuel ${tag}`,
    Rate: 1,
  });
  expect(refuel).toMatchObject({ Id_Car: 2, Liter: 30.5, Price: 1200.4, Tachometer: 1000, Description: `Fuel ${tag}` });
  const refuelEdited = await client.call('EditCarFuel', { ...refuelParams(refuel.Id), Description: `Fuel ${tag} edited` });
  expect(refuelEdited).toMatchObject({ Id: refuel.Id, Description: `Fuel ${tag} edited` });
  return called;
}

const refuelParams = (id: number) => ({
  CarId: 2,
  Id_CarFuel: id,
  Liter: 30.5,
  Price: 1200.4,
  Tachometer: 1000,
  DateOfPurchase: '2026-03-02T08:00:00',
  Currency: 203,
  Description: '',
  Rate: 1,
});

describe('every operation against the service', () => {
  const bindings: Binding[] = ['soap12', 'soap11', 'httpGet', 'httpPost'];
  for (const binding of bindings) {
    it(`all 15 operations over ${binding}`, async () => {
      const client = soapClient(service.url, service.namespace, { binding });
      try {
        const called = await exerciseAll(client, binding);
        expect(new Set(called)).toEqual(new Set(OPERATION_NAMES));
      } finally {
        client.close();
      }
    });
  }

  it('offers one typed method per operation and SOAP 1.2 by default', async () => {
    const client = soapClient(service.url, service.namespace);
    try {
      expect(client.binding).toBe('soap12');
      expect(Object.keys(client.ops).sort()).toEqual([...OPERATION_NAMES].sort());
      const list = await client.ops.TransactionListLast50_2({ AccountId: 1 });
      expect(list.length).toBeGreaterThan(0);
    } finally {
      client.close();
    }
  });

  it('keeps connections alive between calls', async () => {
    proxy.choose(() => 'pass');
    const before = proxy.connections();
    const client = soapClient(proxy.url, service.namespace);
    try {
      // undici waits one turn of the event loop before it reuses a socket after an answer; a call made
      // within that turn (the second, right after the first connection was opened) may open another.
      await client.call('CategoryTree', {});
      await client.call('CategoryTree', {});
      const opened = proxy.connections() - before;
      expect(opened).toBeGreaterThanOrEqual(1);
      expect(opened).toBeLessThanOrEqual(2);
      for (let i = 0; i < 10; i++) await client.call('CategoryTree', {});
      expect(proxy.connections() - before).toBe(opened);
    } finally {
      client.close();
    }
  });
});

describe('typed errors', () => {
  const through = (mode: FaultMode, options: Partial<ConstructorParameters<typeof SoapClient>[0]> = {}) => {
    proxy.choose(() => mode);
    return soapClient(proxy.url, service.namespace, { timeoutMs: ANSWER_MS, ...options });
  };

  it('a fault carries the service message and is not an unknown outcome', async () => {
    const client = soapClient(service.url, service.namespace);
    const err = await client
      .call('AddTranferToOtherAccount', {
        Amount: 1,
        Description: '',
        Id_SourceAccount: 1,
        Id_TargetAccount: 5,
        Id_Category: 0,
        PaymentDate: '2026-01-01T00:00:00',
      })
      .catch((e) => e);
    client.close();
    expect(err).toBeInstanceOf(FaultError);
    expect(err.message).toMatch(/currency/);
    expect(err.outcomeUnknown).toBe(false);
    expect(err.sent).toBe(true);
  });

  it('wrong credentials are InvalidCredentialsError', async () => {
    addUser(service.dataFile, 'wrongpw', 'right-password', { hashParams: TEST_HASH_PARAMS });
    const client = soapClient(service.url, service.namespace, {
      credentials: { clientKey: DEMO.clientKey, login: 'wrongpw', password: 'nope' },
    });
    const err = await client.call('CategoryTree', {}).catch((e) => e);
    client.close();
    expect(err).toBeInstanceOf(InvalidCredentialsError);
    expect(err.kind).toBe('auth');
    expect(err.outcomeUnknown).toBe(false);
  });

  it('a refused connection is a NetworkError: not sent, safe to retry', async () => {
    const gone = await startTestService();
    const url = gone.url;
    await gone.close();
    const client = soapClient(url, service.namespace);
    const err = await client.call('CategoryTree', {}).catch((e) => e);
    client.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.sent).toBe(false);
    expect(err.outcomeUnknown).toBe(false);
  });

  it('a connection dropped after sending is an unknown outcome', async () => {
    for (const mode of ['drop-before', 'drop-after'] as const) {
      const client = through(mode);
      const err = await client.call('CategoryTree', {}).catch((e) => e);
      client.close();
      expect(err, mode).toBeInstanceOf(OutcomeUnknownError);
      expect(err.outcomeUnknown).toBe(true);
    }
  });

  it('a connection that fails once the request went out is an unknown outcome, whatever the system calls the failure', async () => {
    // The network going away mid-call reports EHOSTUNREACH or ENETUNREACH on the open connection. undici
    // announces each socket it connects on a diagnostics channel: the test takes the client's socket there.
    let clientSocket: net.Socket | undefined;
    const onConnected = (message: unknown) => {
      clientSocket = (message as { socket: net.Socket }).socket;
    };
    diagnostics.subscribe('undici:client:connected', onConnected);
    const server = http.createServer((req) => {
      req.resume();
      req.on('end', () => clientSocket!.destroy(Object.assign(new Error('No route to host'), { code: 'EHOSTUNREACH' })));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const transport = nodeTransport({ maxConnections: 1 });
    try {
      const url = new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/API/APIservice.asmx`);
      const err: unknown = await transport
        .exchange('AddAccount', { method: 'POST', url, headers: {}, body: '<AddAccount/>' }, { timeoutMs: 2000, maxResponseBytes: 1024 })
        .catch((e: unknown) => e);
      expect(clientSocket).toBeDefined();
      expect(err).toBeInstanceOf(OutcomeUnknownError);
      expect((err as OutcomeUnknownError).sent).toBe(true);
      expect((err as OutcomeUnknownError).code).toBe('EHOSTUNREACH');
    } finally {
      diagnostics.unsubscribe('undici:client:connected', onConnected);
      transport.close();
      server.close();
    }
  });

  it('no answer in time is a TimeoutError', async () => {
    // The proxy holds the answer back for a minute: only the limit can end the call.
    const client = through('slow', { timeoutMs: 200 });
    const err = await settles(
      'the call to time out',
      client.call('CategoryTree', {}).catch((e) => e),
    );
    client.close();
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.message).toMatch(/within 200 ms/);
    expect(err.outcomeUnknown).toBe(true);
  });

  it('a truncated answer is an unknown outcome', async () => {
    const client = through('truncate');
    const err = await client.call('AccountListWithAmount2', {}).catch((e) => e);
    client.close();
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err.message).toMatch(/before it was complete|lost/);
  });

  it('garbage and an HTML 500 are malformed answers (outcome unknown for a write)', async () => {
    for (const mode of ['garbage', 'error-500', 'garbage-after', 'error-500-after'] as const) {
      const client = through(mode);
      const err = await client.call('CategoryTree', {}).catch((e) => e);
      client.close();
      expect(err, mode).toBeInstanceOf(MalformedResponseError);
      expect(err.outcomeUnknown).toBe(true);
    }
  });

  it('a 100 MB answer stops at the size cap without being read whole', async () => {
    const client = through('huge', { maxResponseBytes: 4 * 1024 * 1024, timeoutMs: 20_000 });
    const sentBefore = proxy.hugeBytesSent();
    const heapBefore = process.memoryUsage().heapUsed;
    const err = await client.call('AccountListWithAmount2', {}).catch((e) => e);
    client.close();
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.message).toMatch(/larger than the limit of 4 MB/);
    // The answer was cut off, not read to its end: most of the 100 MB was never sent.
    expect(proxy.hugeBytesSent() - sentBefore).toBeLessThan(40 * 1024 * 1024);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(50 * 1024 * 1024);
  });
});
