/**
 * Answers of services we did not write, written by hand from the interface document: a SOAP 1.1
 * envelope, the `soap12:` prefix, prefixed result elements, dates with offsets and fractions, unknown
 * elements, nil items, missing optional fields, and an older service without the "2" operations.
 * A loopback server replays them, so that the whole client path (HTTP, codec, fallback, store) reads them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { FaultError, InvalidCredentialsError, SoapClient, connect } from '../../src-main/core/soap-client';
import { fetchTransportFactory } from '../../src-main/core/soap-client/transports/fetch';
import { dumpLocal, openCore, tempDir } from '../support/client';
import { englishOf } from '../support/error-words';

const NS = 'http://example.org/foreign/';
const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';

interface Recorded {
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
  body: string;
}

/** Answers by operation name (from the SOAP body or the path); a missing one is a SOAPAction fault. */
let answers: Record<string, Recorded> = {};
let server: http.Server;
let url: string;
const seen: string[] = [];

function operationOf(req: http.IncomingMessage, body: string): string {
  return (
    /APIservice\.asmx\/(\w+)/.exec(req.url ?? '')?.[1] ??
    /<(?:\w+:)?Body[^>]*>\s*<(?:\w+:)?(\w+)/.exec(body)?.[1] ??
    (req.url?.includes('WSDL') ? 'WSDL' : '?')
  );
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const op = operationOf(req, body);
      seen.push(op);
      const a = answers[op] ?? {
        status: 500,
        contentType: 'text/xml; charset=utf-8',
        body: soap11(
          `<soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server did not recognize the value of HTTP Header SOAPAction: ${NS}${op}.</faultstring><detail /></soap:Fault>`,
        ),
      };
      res.writeHead(a.status ?? 200, { ...a.headers, 'content-type': a.contentType ?? 'application/soap+xml; charset=utf-8' });
      res.end(a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const soap11 = (inner: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ${XSI}><soap:Body>${inner}</soap:Body></soap:Envelope>`;
const soap12 = (inner: string) =>
  `<?xml version="1.0"?>\n<soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope" ${XSI}>\n  <soap12:Header/>\n  <soap12:Body>${inner}</soap12:Body>\n</soap12:Envelope>`;

function client(options: Partial<ConstructorParameters<typeof SoapClient>[0]> = {}): SoapClient {
  return new SoapClient({
    baseUrl: url,
    namespace: NS,
    credentials: { clientKey: 'k', login: 'l', password: 'p' },
    timeZone: 'Europe/Prague',
    ...options,
  });
}

const OLD_WSDL = `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tns="${NS}" targetNamespace="${NS}">
  <wsdl:portType name="APIserviceSoap">
    ${[
      'AccountListWithAmount',
      'TransactionListLast50',
      'DefineTransactionList',
      'CarFuelList',
      'CategoryTree',
      'AddAccount',
      'EditAccount',
      'AddTranferToOtherAccount',
      'AddCategory',
      'EditCategory',
      'EditCarFuel',
    ]
      .map((n) => `<wsdl:operation name="${n}"><wsdl:input message="tns:${n}SoapIn"/></wsdl:operation>`)
      .join('\n    ')}
  </wsdl:portType>
  <wsdl:binding name="APIserviceSoap" type="tns:APIserviceSoap"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/></wsdl:binding>
</wsdl:definitions>`;

describe('answers of other shapes', () => {
  it('reads a SOAP 1.1 envelope with other prefixes, unknown elements and nil items', async () => {
    answers = {
      AccountListWithAmount2: {
        contentType: 'text/xml; charset=utf-8',
        body: soap11(
          `<r:AccountListWithAmount2Response xmlns:r="${NS}"><r:AccountListWithAmount2Result><r:Extra>ignored</r:Extra><r:Data>` +
            `<r:apiAccount2><r:Id>12</r:Id><r:Name>Wallet</r:Name><r:Type>1</r:Type><r:Currency>203</r:Currency><r:IsActive>true</r:IsActive>` +
            `<r:Locked>false</r:Locked><r:Description /><r:Ord>1</r:Ord><r:UserAccountPermission>3</r:UserAccountPermission>` +
            `<r:Amount>1520.50</r:Amount><r:IsHidden>false</r:IsHidden><r:Colour>blue</r:Colour></r:apiAccount2>` +
            `<r:apiAccount2 xsi:nil="true" />` +
            // Optional fields missing: read as a .NET client would (empty, zero, false).
            `<r:apiAccount2><r:Id>13</r:Id><r:Name>Sparse</r:Name><r:Amount>-0.1</r:Amount></r:apiAccount2>` +
            `</r:Data></r:AccountListWithAmount2Result></r:AccountListWithAmount2Response>`,
        ),
      },
    };
    const list = await client().listAccounts();
    expect(list).toEqual([
      {
        Id: 12,
        Name: 'Wallet',
        Type: 1,
        Currency: 203,
        IsActive: true,
        Locked: false,
        Description: '',
        Ord: 1,
        UserAccountPermission: 3,
        Amount: 1520.5,
        IsHidden: false,
      },
      {
        Id: 13,
        Name: 'Sparse',
        Type: 0,
        Currency: 0,
        IsActive: false,
        Locked: false,
        Description: '',
        Ord: 0,
        UserAccountPermission: 0,
        Amount: -0.1,
        IsHidden: false,
      },
    ]);
  });

  it('reads the soap12: prefix, prefixed results and dates with offsets and fractions', async () => {
    const tx = (id: number, date: string) =>
      `<m:apiTransaction2><m:Id>${id}</m:Id><m:Id_User>1</m:Id_User><m:Id_UserCreated>1</m:Id_UserCreated><m:Id_Account>12</m:Id_Account>` +
      `<m:PaymentDate>${date}</m:PaymentDate><m:Type>2</m:Type><m:Amount>-5</m:Amount><m:Description>x</m:Description><m:Id_Category>0</m:Id_Category></m:apiTransaction2>`;
    answers = {
      TransactionListLast50_2: {
        body: soap12(
          `<m:TransactionListLast50_2Response xmlns:m="${NS}"><m:TransactionListLast50_2Result><m:Data>` +
            tx(1, '2026-03-01T10:00:00+01:00') +
            tx(2, '2026-03-01T09:00:00Z') +
            tx(3, '2026-07-01T09:00:00.1234567Z') +
            tx(4, '2026-03-01T10:00:00') +
            tx(5, '2026-03-01T04:00:00-05:00') +
            `</m:Data></m:TransactionListLast50_2Result></m:TransactionListLast50_2Response>`,
        ),
      },
    };
    const { items, hasIds } = await client().listTransactions(12);
    expect(hasIds).toBe(true);
    // Converted into the client's zone (Prague: +01:00 in March, +02:00 in July), fractions to milliseconds.
    expect(items.map((t) => t.PaymentDate)).toEqual([
      '2026-03-01T10:00:00',
      '2026-03-01T10:00:00',
      '2026-07-01T11:00:00.123',
      '2026-03-01T10:00:00',
      '2026-03-01T10:00:00',
    ]);
  });

  it('reads a category tree with nil children, nil items and unknown elements', async () => {
    answers = {
      CategoryTree: {
        body: soap12(
          `<CategoryTreeResponse xmlns="${NS}"><CategoryTreeResult><Data>` +
            `<FavoritCategories><apiCategory><Id>3</Id><Name>Food</Name><ChildCategories xsi:nil="true"/></apiCategory><apiCategory xsi:nil="true"/></FavoritCategories>` +
            `<AllCategories><apiCategory><Id>1</Id><Name>Home</Name><Icon>h</Icon><ChildCategories><apiCategory><Id>3</Id><Name>Food</Name></apiCategory></ChildCategories></apiCategory>` +
            `<apiCategory><Id>2</Id><Name>Car</Name><ChildCategories xsi:nil="true" /></apiCategory></AllCategories>` +
            `</Data></CategoryTreeResult></CategoryTreeResponse>`,
        ),
      },
    };
    expect(await client().call('CategoryTree', {})).toEqual({
      FavoritCategories: [{ Id: 3, Name: 'Food', ChildCategories: null }],
      AllCategories: [
        { Id: 1, Name: 'Home', ChildCategories: [{ Id: 3, Name: 'Food', ChildCategories: null }] },
        { Id: 2, Name: 'Car', ChildCategories: null },
      ],
    });
  });

  it('reads faults in both SOAP versions and the plain text of the GET/POST bindings', async () => {
    answers = {
      CategoryTree: {
        status: 500,
        body: soap12(
          `<soap12:Fault><soap12:Code><soap12:Value>soap12:Sender</soap12:Value></soap12:Code><soap12:Reason><soap12:Text xml:lang="en">Name must not be empty.</soap12:Text></soap12:Reason></soap12:Fault>`,
        ),
      },
      AddCategory: {
        status: 500,
        contentType: 'text/xml; charset=utf-8',
        body: soap11('<soap:Fault><faultcode>soap:Client</faultcode><faultstring>Invalid credentials</faultstring><detail /></soap:Fault>'),
      },
      EditCategory: { status: 500, contentType: 'text/plain; charset=utf-8', body: 'Missing parameter: Name.' },
    };
    const c = client();
    const e1 = await c.call('CategoryTree', {}).catch((e) => e);
    expect(e1).toBeInstanceOf(FaultError);
    expect(e1.message).toBe('Name must not be empty.');
    expect(e1.fault.faultCode).toBe('Client');
    expect(await c.call('AddCategory', { Name: 'x', Id_ParentCategory: 0 }).catch((e) => e)).toBeInstanceOf(InvalidCredentialsError);
    const c2 = client({ binding: 'httpPost' });
    const e3 = await c2.call('EditCategory', { Id_Category: 1, Name: 'x' }).catch((e) => e);
    expect(e3).toBeInstanceOf(FaultError);
    expect(e3.message).toBe('Missing parameter: Name.');
  });
});

describe('credential faults told by their subcode, not their words', () => {
  const TRANSPORTS = { undici: undefined, fetch: fetchTransportFactory({ fetch: (u, init) => fetch(u, init) }) };
  const words = 'Přístup odepřen.';
  const plain = (subcode?: string): Recorded => ({
    status: 500,
    contentType: 'text/plain; charset=utf-8',
    headers: subcode ? { 'Fault-Subcode': subcode } : {},
    body: words,
  });

  it.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])('in each binding, through the %s transport', async (name) => {
    const transport = TRANSPORTS[name] ? { transport: TRANSPORTS[name] } : {};
    const marked: Record<string, Recorded> = {
      soap12: {
        status: 500,
        body: soap12(
          `<soap12:Fault><soap12:Code><soap12:Value>soap12:Sender</soap12:Value><soap12:Subcode><soap12:Value xmlns:b="${NS}">b:InvalidCredentials</soap12:Value></soap12:Subcode></soap12:Code>` +
            `<soap12:Reason><soap12:Text xml:lang="en">${words}</soap12:Text></soap12:Reason></soap12:Fault>`,
        ),
      },
      soap11: {
        status: 500,
        contentType: 'text/xml; charset=utf-8',
        body: soap11(
          `<soap:Fault><faultcode>soap:Client</faultcode><faultstring>${words}</faultstring><detail><InvalidCredentials xmlns="${NS}" /></detail></soap:Fault>`,
        ),
      },
      httpGet: plain('InvalidCredentials'),
      httpPost: plain('InvalidCredentials'),
    };
    for (const binding of ['soap12', 'soap11', 'httpGet', 'httpPost'] as const) {
      answers = { CategoryTree: marked[binding]! };
      const e = await client({ binding, ...transport })
        .call('CategoryTree', {})
        .catch((x: unknown) => x);
      expect(e, binding).toBeInstanceOf(InvalidCredentialsError);
      expect((e as Error).message).toBe(words);
    }
    // The same words without the mark, or with a password in them: the service refusing the call.
    for (const answer of [plain(), { ...plain(), body: 'Wrong password format.' }]) {
      answers = { CategoryTree: answer };
      const e = await client({ binding: 'httpGet', ...transport })
        .call('CategoryTree', {})
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(FaultError);
      expect(e).not.toBeInstanceOf(InvalidCredentialsError);
    }
  });
});

describe('an older service without the "2" operations', () => {
  const oldAnswers = (): Record<string, Recorded> => ({
    WSDL: { contentType: 'text/xml; charset=utf-8', body: OLD_WSDL },
    AccountListWithAmount: {
      body: soap12(
        `<AccountListWithAmountResponse xmlns="${NS}"><AccountListWithAmountResult><Data>` +
          `<apiAccount><Id>12</Id><Name>Wallet</Name><Type>1</Type><Currency>203</Currency><IsActive>true</IsActive><Locked>false</Locked><Description/><Ord>1</Ord><UserAccountPermission>3</UserAccountPermission><Amount>100.5</Amount></apiAccount>` +
          `</Data></AccountListWithAmountResult></AccountListWithAmountResponse>`,
      ),
    },
    TransactionListLast50: {
      body: soap12(
        `<TransactionListLast50Response xmlns="${NS}"><TransactionListLast50Result><Data>` +
          [
            '<apiTransaction><Id_User>1</Id_User><Id_UserCreated>1</Id_UserCreated><Id_Account>12</Id_Account><PaymentDate>2026-03-01T10:00:00</PaymentDate><Type>1</Type><Amount>50.25</Amount><Description>same</Description><Id_Category>0</Id_Category></apiTransaction>',
          ]
            .concat(
              // Two equal transactions: both kept.
              Array(2).fill(
                '<apiTransaction><Id_User>1</Id_User><Id_UserCreated>1</Id_UserCreated><Id_Account>12</Id_Account><PaymentDate>2026-03-02T10:00:00</PaymentDate><Type>1</Type><Amount>25.125</Amount><Description>twin</Description><Id_Category>0</Id_Category></apiTransaction>',
              ),
            )
            .join('') +
          `</Data></TransactionListLast50Result></TransactionListLast50Response>`,
      ),
    },
    DefineTransactionList: {
      body: soap12(
        `<DefineTransactionListResponse xmlns="${NS}"><DefineTransactionListResult><Data>` +
          `<apiDefineTransaction><Id>7</Id><Id_User>1</Id_User><Id_UserCreated>1</Id_UserCreated><Id_Account>12</Id_Account><Type>2</Type><Amount>-10</Amount><Description>Rent</Description><Id_Category>0</Id_Category></apiDefineTransaction>` +
          `</Data></DefineTransactionListResult></DefineTransactionListResponse>`,
      ),
    },
    CategoryTree: {
      body: soap12(
        `<CategoryTreeResponse xmlns="${NS}"><CategoryTreeResult><Data><FavoritCategories/><AllCategories/></Data></CategoryTreeResult></CategoryTreeResponse>`,
      ),
    },
    CarFuelList: { body: soap12(`<CarFuelListResponse xmlns="${NS}"><CarFuelListResult/></CarFuelListResponse>`) },
  });

  it('connect() reports the missing operations', async () => {
    answers = oldAnswers();
    const d = await connect(url);
    expect(d.namespace).toBe(NS);
    expect(d.missing).toEqual(['AccountList2', 'AccountListWithAmount2', 'TransactionListLast50_2', 'DefineTransactionList2']);
    expect(d.bindings).toEqual(['soap11']);
  });

  it('falls back to the older operations when the service does not recognise a "2" one, and remembers', async () => {
    answers = oldAnswers();
    const c = client();
    seen.length = 0;
    expect((await c.listAccounts())[0]).toMatchObject({ Id: 12, Amount: 100.5, IsHidden: false });
    expect(await c.listAccounts()).toHaveLength(1);
    expect(seen).toEqual(['AccountListWithAmount2', 'AccountListWithAmount', 'AccountListWithAmount']);
    const txs = await c.listTransactions(12);
    expect(txs.hasIds).toBe(false);
    expect(txs.items[0]).toMatchObject({ Id: null, Amount: 50.25 });
    expect((await c.listTemplates())[0]).toMatchObject({ Id: 7, Ord: 0 });
  });

  it('an app core connects, pulls and keeps transactions without ids', async () => {
    answers = oldAnswers();
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'));
    try {
      seen.length = 0;
      await core.connect({ baseUrl: url, clientKey: 'k', login: 'l', password: 'p' });
      const summary = await core.sync();
      expect(summary.error).toBeNull();
      // The WSDL said which operations exist: no "2" operation was even tried.
      expect(seen.filter((op) => op.endsWith('2'))).toEqual([]);
      const page = await core.listTransactions({ accountId: 12 });
      expect(page.items.map((t) => [t.id, t.amount, t.description])).toEqual([
        [null, '25.125', 'twin'],
        [null, '25.125', 'twin'],
        [null, '50.25', 'same'],
      ]);
      // A second pull of the same list adds nothing.
      await core.sync();
      expect((await core.listTransactions({ accountId: 12 })).total).toBe(3);
      expect((await core.listTemplates())[0]).toMatchObject({ id: 7, amount: '-10', accountName: 'Wallet' });
    } finally {
      await core.close();
      tmp.remove();
    }
  });

  it('a transfer the service confirms with ids is kept once, although its lists carry no ids', async () => {
    answers = oldAnswers();
    const account = (id: number, amount: string) =>
      `<apiAccount><Id>${id}</Id><Name>A${id}</Name><Type>1</Type><Currency>203</Currency><IsActive>true</IsActive><Locked>false</Locked><Description/><Ord>1</Ord><UserAccountPermission>3</UserAccountPermission><Amount>${amount}</Amount></apiAccount>`;
    answers.AccountListWithAmount = {
      body: soap12(
        `<AccountListWithAmountResponse xmlns="${NS}"><AccountListWithAmountResult><Data>${account(12, '100.5')}${account(13, '0')}</Data></AccountListWithAmountResult></AccountListWithAmountResponse>`,
      ),
    };
    const fields = (id: number | null, accountId: number, amount: string) =>
      `${id === null ? '' : `<Id>${id}</Id>`}<Id_User>1</Id_User><Id_UserCreated>1</Id_UserCreated><Id_Account>${accountId}</Id_Account><PaymentDate>2026-03-05T10:00:00</PaymentDate><Type>3</Type><Amount>${amount}</Amount><Description>moved</Description><Id_Category>0</Id_Category>`;
    answers.AddTranferToOtherAccount = {
      body: soap12(
        `<AddTranferToOtherAccountResponse xmlns="${NS}"><AddTranferToOtherAccountResult><Transaction1>${fields(901, 12, '-5')}</Transaction1><Transaction2>${fields(902, 13, '5')}</Transaction2></AddTranferToOtherAccountResult></AddTranferToOtherAccountResponse>`,
      ),
    };
    // Once the transfer is made, the service lists it (without an id, as its older list does). This
    // stand-in answers every account's list alike: each account keeps its own rows all the same.
    const before = answers.TransactionListLast50!;
    const after = { body: before.body.replace('<Data>', `<Data><apiTransaction>${fields(null, 12, '-5')}</apiTransaction>`) };
    Object.defineProperty(answers, 'TransactionListLast50', { get: () => (seen.includes('AddTranferToOtherAccount') ? after : before) });
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'));
    try {
      seen.length = 0;
      await core.connect({ baseUrl: url, clientKey: 'k', login: 'l', password: 'p' });
      expect((await core.sync()).error).toBeNull();
      await core.transfer({
        sourceId: 12,
        targetId: 13,
        amount: '5',
        paymentDate: '2026-03-05T10:00',
        categoryId: 0,
        description: 'moved',
      });
      expect(await core.sync()).toMatchObject({ pushed: 1, error: null });
      const history = (await core.listTransactions({ accountId: 12 })).items;
      expect(history.map((t) => [t.amount, t.description])).toEqual([
        ['-5', 'moved'],
        ['25.125', 'twin'],
        ['25.125', 'twin'],
        ['50.25', 'same'],
      ]);
    } finally {
      await core.close();
      tmp.remove();
    }
  });

  it('a service that lists amounts a double cannot be a decimal of fails the pull and changes nothing', async () => {
    answers = oldAnswers();
    const tmp = tempDir();
    const secrets = new MemorySecretStore();
    const core = openCore(tmp.file('local.sqlite'), { secrets });
    try {
      await core.connect({ baseUrl: url, clientKey: 'k', login: 'l', password: 'p' });
      await core.sync();
      await core.close();
      const before = dumpLocal(tmp.file('local.sqlite'));
      answers.AccountListWithAmount!.body = answers.AccountListWithAmount!.body.replace('<Amount>100.5</Amount>', '<Amount>NaN</Amount>');
      const again = openCore(tmp.file('local.sqlite'), { secrets });
      const summary = await again.sync();
      await again.close();
      expect(summary.errorCode).toBe('service');
      expect(englishOf(summary.error)).toMatch(/cannot be kept/);
      const after = dumpLocal(tmp.file('local.sqlite'));
      expect(after.accounts).toEqual(before.accounts);
      expect(after.transactions).toEqual(before.transactions);
    } finally {
      tmp.remove();
    }
  });
});
