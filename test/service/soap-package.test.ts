/**
 * An independent client: the `soap` npm package reads our ?WSDL and calls every operation through
 * SOAP 1.1 and SOAP 1.2; what it reads must equal what the service holds (read back by our codec).
 */
import * as soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FLAT_RECORDS,
  OPERATIONS,
  wireParams,
  type ApiCategory,
  type Credentials,
  type FlatRecordName,
  type OperationName,
  type ParamsOf,
} from '../../src-shared/catalog';
import { formatWall } from '../../src-shared/wire';
import { call } from '../support/http';
import type { TestService } from '../support/service';
import { ANN, startFixtureService, type Fixture } from './fixture';

const NS = 'http://bookkeeping.example/api/';
type SoapPort = Record<string, (args: object, cb: (err: unknown, result: Record<string, unknown>) => void) => void>;

const asArray = <T>(x: T | T[] | undefined | null): T[] => (x === undefined || x === null ? [] : Array.isArray(x) ? x : [x]);

/** A record as the soap package read it, in our types: dates back to wall-clock text (it made local Dates). */
function normalize(record: FlatRecordName, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of FLAT_RECORDS[record].fields) {
    const v = value[f.name];
    if (f.type === 'dateTime') {
      const d = v as Date;
      out[f.name] = formatWall({
        year: d.getFullYear(),
        month: d.getMonth() + 1,
        day: d.getDate(),
        hour: d.getHours(),
        minute: d.getMinutes(),
        second: d.getSeconds(),
        millisecond: d.getMilliseconds(),
      });
    } else out[f.name] = f.type === 'string' && v === undefined ? '' : v;
  }
  return out;
}

function normalizeCategories(items: unknown): ApiCategory[] {
  return asArray(items as Record<string, unknown>[]).map((c) => ({
    Id: c.Id as number,
    Name: c.Name as string,
    ChildCategories: c.ChildCategories ? normalizeCategories((c.ChildCategories as Record<string, unknown>).apiCategory) : null,
  }));
}

/** The soap package's result of an operation, in the shape our codec reads it. */
function normalizeResult(name: OperationName, result: Record<string, unknown>): unknown {
  const content = result[`${name}Result`] as Record<string, unknown>;
  const shape = OPERATIONS[name].result;
  switch (shape.kind) {
    case 'list': {
      const data = content.Data as Record<string, unknown> | undefined;
      return asArray(data?.[shape.record] as Record<string, unknown>[]).map((r) => normalize(shape.record, r));
    }
    case 'single':
      return normalize(shape.record, content.Data as Record<string, unknown>);
    case 'categoryTree': {
      const data = content.Data as Record<string, Record<string, unknown>>;
      return {
        FavoritCategories: normalizeCategories(data.FavoritCategories?.apiCategory),
        AllCategories: normalizeCategories(data.AllCategories?.apiCategory),
      };
    }
    case 'transferPair':
      return {
        Transaction1: normalize('apiTransaction2', content.Transaction1 as Record<string, unknown>),
        Transaction2: normalize('apiTransaction2', content.Transaction2 as Record<string, unknown>),
      };
  }
}

describe.each([
  ['SOAP 1.1', 'APIserviceSoap', false],
  ['SOAP 1.2', 'APIserviceSoap12', true],
] as const)('the soap package over %s', (_label, portName, soap12) => {
  let service: TestService;
  let fx: Fixture;
  let port: SoapPort;
  let client: soap.Client;
  beforeAll(async () => {
    ({ service, fixture: fx } = await startFixtureService({ namespace: NS }));
    client = await soap.createClientAsync(`${service.url}/API/APIservice.asmx?WSDL`, soap12 ? { forceSoap12Headers: true } : {});
    port = (client as unknown as Record<string, Record<string, SoapPort>>).APIservice![portName]!;
  });
  afterAll(() => service.close());

  /** Calls through the soap package with the arguments in wire order; returns the result normalised. */
  async function viaSoap<N extends OperationName>(name: N, params: ParamsOf<N>, credentials: Credentials = ANN): Promise<unknown> {
    const values: Record<string, unknown> = {
      APIClientKey: credentials.clientKey,
      UserLogin: credentials.login,
      [OPERATIONS[name].passwordParam]: credentials.password,
      ...params,
    };
    const args = Object.fromEntries(wireParams(name).map((p) => [p.name, values[p.name]]));
    const result = await new Promise<Record<string, unknown>>((resolve, reject) =>
      port[name]!(args, (err, res) => (err ? reject(err) : resolve(res))),
    );
    return normalizeResult(name, result);
  }
  const ours = <N extends OperationName>(name: N, params: ParamsOf<N>) => call(service, 'soap12', name, ANN, params);

  it('reads every list operation as the service holds it', async () => {
    const reads: [OperationName, object][] = [
      ['AccountList2', {}],
      ['AccountListWithAmount2', {}],
      ['AccountListWithAmount', {}],
      ['TransactionListLast50_2', { AccountId: fx.accounts.bank }],
      ['TransactionListLast50', { AccountId: fx.accounts.bank }],
      ['DefineTransactionList', {}],
      ['DefineTransactionList2', {}],
      ['CarFuelList', { CarId: 7 }],
      ['CategoryTree', {}],
    ];
    for (const [name, params] of reads) {
      const expected = await ours(name, params as never);
      expect(await viaSoap(name, params as never), name).toEqual(expected);
    }
    // Spot checks that the lists are not trivially empty on both sides.
    const accounts = (await viaSoap('AccountListWithAmount2', {})) as { Amount: number; Name: string }[];
    expect(accounts.find((a) => a.Name === 'Bank')?.Amount).toBe(800.25);
    const txs = (await viaSoap('TransactionListLast50_2', { AccountId: fx.accounts.bank })) as { PaymentDate: string }[];
    expect(txs.map((t) => t.PaymentDate)).toEqual(['2026-02-01T08:30:00.5', '2026-01-05T10:00:00']);
  });

  it('AddAccount and EditAccount', async () => {
    const added = (await viaSoap('AddAccount', {
      Name: `Via soap ${portName}`,
      Description: 'é & <ok>',
      Currency: 203,
      Type: 3,
      IsActive: true,
      IsHidden: false,
      Locked: false,
      Ord: 20,
    })) as { Id: number };
    const listed = (await ours('AccountList2', {})).find((a) => a.Id === added.Id);
    expect(added).toEqual(listed);
    expect(listed?.Description).toBe('é & <ok>');
    const edited = await viaSoap('EditAccount', {
      Id_Account: added.Id,
      Name: 'Renamed',
      Description: '',
      Type: 2,
      IsActive: false,
      IsHidden: true,
      Locked: true,
      Ord: 21,
    });
    expect(edited).toEqual((await ours('AccountList2', {})).find((a) => a.Id === added.Id));
    expect(edited).toMatchObject({ Name: 'Renamed', IsActive: false, IsHidden: true, Locked: true, Ord: 21 });
  });

  it('AddTranferToOtherAccount', async () => {
    const pair = (await viaSoap('AddTranferToOtherAccount', {
      Amount: 0.3,
      Description: 'soap move',
      Id_SourceAccount: fx.accounts.bank,
      Id_TargetAccount: fx.accounts.cash,
      Id_Category: fx.categories.car,
      PaymentDate: '2026-06-01T12:00:00',
    })) as { Transaction1: { Id: number; Amount: number }; Transaction2: { Id: number; Amount: number } };
    expect(pair.Transaction1.Amount).toBe(-0.3);
    expect(pair.Transaction2.Amount).toBe(0.3);
    const [t1] = await ours('TransactionListLast50_2', { AccountId: fx.accounts.bank });
    const [t2] = await ours('TransactionListLast50_2', { AccountId: fx.accounts.cash });
    expect(pair).toEqual({ Transaction1: t1, Transaction2: t2 });
  });

  it('AddCategory and EditCategory answer the tree', async () => {
    const tree = (await viaSoap('AddCategory', { Name: `Sub ${portName}`, Id_ParentCategory: fx.categories.car })) as {
      AllCategories: ApiCategory[];
    };
    expect(tree).toEqual(await ours('CategoryTree', {}));
    const car = tree.AllCategories.find((c) => c.Id === fx.categories.car)!;
    const sub = car.ChildCategories!.find((c) => c.Name === `Sub ${portName}`)!;
    const renamed = await viaSoap('EditCategory', { Id_Category: sub.Id, Name: `Renamed ${portName}` });
    expect(renamed).toEqual(await ours('CategoryTree', {}));
  });

  it('EditCarFuel creates with Id_CarFuel 0 and edits', async () => {
    const fields = {
      CarId: 3,
      Liter: 33.33,
      Price: 1234.5,
      Tachometer: 4242,
      DateOfPurchase: '2026-07-01T06:45:00',
      Currency: 978,
      Description: 'soap',
      Rate: 25.5,
    };
    const created = (await viaSoap('EditCarFuel', { ...fields, Id_CarFuel: 0 })) as { Id: number };
    expect([created]).toEqual((await ours('CarFuelList', { CarId: 3 })).filter((r) => r.Id === created.Id));
    const edited = await viaSoap('EditCarFuel', { ...fields, Id_CarFuel: created.Id, Liter: 30 });
    expect(edited).toMatchObject({ Id: created.Id, Liter: 30, Price: 1234.5, Rate: 25.5, DateOfPurchase: '2026-07-01T06:45:00' });
  });

  it('speaks the SOAP version asked for', async () => {
    await viaSoap('AccountList2', {});
    const headers = client.lastRequestHeaders as Record<string, string>;
    const contentType = headers['Content-Type'] ?? headers['content-type'];
    expect(contentType).toContain(soap12 ? 'application/soap+xml' : 'text/xml');
    expect(client.lastRequest).toContain(soap12 ? 'http://www.w3.org/2003/05/soap-envelope' : 'http://schemas.xmlsoap.org/soap/envelope/');
  });

  it('reads a fault', async () => {
    await expect(viaSoap('AccountList2', {}, { ...ANN, password: 'wrong' })).rejects.toThrow(/Invalid credentials/);
  });
});
