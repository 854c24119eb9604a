/**
 * Every kind of refusal, in every binding: the fault's shape (SOAP 1.1 / 1.2 envelope or plain text),
 * its HTTP status and code, and a message that names the parameter or rule and leaks nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src-service';
import type { Credentials, OperationName, ParamsOf } from '../../src-shared/catalog';
import { BINDINGS, buildRequest, type Binding, type WireRequest } from '../../src-shared/wire';
import { describeBackends, takesEffect } from '../support/backends';
import { callRaw, send } from '../support/http';
import type { TestService } from '../support/service';
import { ANN, CLIENT_KEY, startFixtureService, type Fixture } from './fixture';
import { CLIENT_CODE, SERVER_CODE, faultOf, subcodeOf } from './wire-shape';

describeBackends(import.meta.url, (backend) => {
  const NS = 'http://bookkeeping.example/api/';
  let service: TestService;
  let fx: Fixture;
  const logged: string[] = [];
  const logger: Logger = { info: () => {}, error: (m, e) => logged.push(`${m} ${String(e)}`) };

  beforeAll(async () => {
    // Throttling has tests of its own; here every credential case is tried on every binding.
    const auth = { throttle: { slowAfter: 1000, lockAfter: 1000 } };
    ({ service, fixture: fx } = await startFixtureService({ backend, namespace: NS, service: { logger, auth } }));
  });
  afterAll(() => service.close());

  async function expectFault(
    binding: Binding,
    res: Awaited<ReturnType<typeof send>>,
    message: string,
    status = 500,
    code = CLIENT_CODE[binding],
  ) {
    const fault = faultOf(binding, res);
    expect(fault).toEqual({ code, message, status });
    // Only refused credentials are marked, with the same words and status as any other Client fault; SOAP 1.1
    // has no subcode, and its detail stays empty as the service decisions fix it.
    expect(subcodeOf(binding, res, NS)).toBe(message === 'Invalid credentials' && binding !== 'soap11' ? 'InvalidCredentials' : null);
  }

  function request<N extends OperationName>(
    binding: Binding,
    operation: N,
    params: ParamsOf<N>,
    credentials: Credentials = ANN,
  ): WireRequest {
    return buildRequest(binding, { operation, credentials, params }, NS);
  }

  /** The request with a piece of its body or path replaced (for missing and mistyped parameters). */
  function edit(req: WireRequest, from: string | RegExp, to: string): WireRequest {
    const where = req.method === 'GET' ? 'path' : 'body';
    const before = req[where];
    const after = before.replace(from, to);
    expect(after, `edit of ${String(from)}`).not.toBe(before);
    return { ...req, [where]: after };
  }

  describe.each(BINDINGS)('%s', (binding) => {
    const fault = async <N extends OperationName>(operation: N, params: ParamsOf<N>, message: string, credentials: Credentials = ANN) =>
      expectFault(binding, await callRaw(service, binding, operation, credentials, params), message);

    it('any credential mismatch is "Invalid credentials", the same for every part', async () => {
      for (const credentials of [
        { ...ANN, password: 'wrong' },
        { ...ANN, login: 'nobody' },
        { ...ANN, clientKey: 'unknown-key' },
        { ...ANN, password: '' },
        { clientKey: '', login: '', password: '' },
      ]) {
        await fault('AccountList2', {}, 'Invalid credentials', credentials);
        await fault('TransactionListLast50_2', { AccountId: fx.accounts.bank }, 'Invalid credentials', credentials);
      }
    });

    it('a disabled client key is refused at once (PostgreSQL: within a second, at its notification), and accepted again when enabled', async () => {
      expect((await callRaw(service, binding, 'AccountList2', ANN, {})).status).toBe(200);
      await service.admin.setClientEnabled(CLIENT_KEY, false);
      await takesEffect(backend, () => fault('AccountList2', {}, 'Invalid credentials'));
      await service.admin.setClientEnabled(CLIENT_KEY, true);
      await takesEffect(backend, async () => expect((await callRaw(service, binding, 'AccountList2', ANN, {})).status).toBe(200));
    });

    it("unknown ids and other users' ids get the same answer", async () => {
      const a = fx.accounts;
      for (const id of [999_999, a.bobOwn]) {
        await fault('TransactionListLast50_2', { AccountId: id }, `AccountId: account ${id} does not exist.`);
        await fault('TransactionListLast50', { AccountId: id }, `AccountId: account ${id} does not exist.`);
        await fault(
          'EditAccount',
          { Id_Account: id, Name: 'x', Description: '', Type: 1, IsActive: true, IsHidden: false, Locked: false, Ord: 0 },
          `Id_Account: account ${id} does not exist.`,
        );
      }
      for (const id of [999_999, fx.categories.bobs]) {
        await fault('EditCategory', { Id_Category: id, Name: 'x' }, `Id_Category: category ${id} does not exist.`);
        await fault('AddCategory', { Name: 'x', Id_ParentCategory: id }, `Id_ParentCategory: category ${id} does not exist.`);
      }
      for (const id of [999_999, fx.refuelings.bobs]) {
        await fault(
          'EditCarFuel',
          {
            CarId: 7,
            Id_CarFuel: id,
            Liter: 1,
            Price: 1,
            Tachometer: 1,
            DateOfPurchase: '2026-01-01T00:00:00',
            Currency: 203,
            Description: '',
            Rate: 1,
          },
          `Id_CarFuel: refueling ${id} does not exist.`,
        );
      }
    });

    it('read-only permission: no edit, no transfer', async () => {
      const id = fx.accounts.bobRead;
      await fault(
        'EditAccount',
        { Id_Account: id, Name: 'Mine now', Description: '', Type: 1, IsActive: true, IsHidden: false, Locked: false, Ord: 0 },
        `Id_Account: account ${id} is read-only for you; editing it needs permission 2 or 3.`,
      );
      await fault(
        'AddTranferToOtherAccount',
        {
          Amount: 1,
          Description: '',
          Id_SourceAccount: id,
          Id_TargetAccount: fx.accounts.bank,
          Id_Category: 0,
          PaymentDate: '2026-01-01T00:00:00',
        },
        `Id_SourceAccount: account ${id} is read-only for you.`,
      );
      await fault(
        'AddTranferToOtherAccount',
        {
          Amount: 1,
          Description: '',
          Id_SourceAccount: fx.accounts.bank,
          Id_TargetAccount: id,
          Id_Category: 0,
          PaymentDate: '2026-01-01T00:00:00',
        },
        `Id_TargetAccount: account ${id} is read-only for you.`,
      );
    });

    it('every rule of a transfer', async () => {
      const a = fx.accounts;
      const t = (over: Partial<ParamsOf<'AddTranferToOtherAccount'>>) => ({
        Amount: 10,
        Description: 'x',
        Id_SourceAccount: a.bank,
        Id_TargetAccount: a.cash,
        Id_Category: 0,
        PaymentDate: '2026-01-01T00:00:00',
        ...over,
      });
      await fault(
        'AddTranferToOtherAccount',
        t({ Id_TargetAccount: a.bank }),
        'Id_TargetAccount must be another account than Id_SourceAccount.',
      );
      await fault(
        'AddTranferToOtherAccount',
        t({ Id_TargetAccount: a.euro }),
        `Id_TargetAccount: account ${a.euro} is in EUR, the source account in CZK; a transfer needs one currency.`,
      );
      await fault('AddTranferToOtherAccount', t({ Id_SourceAccount: a.locked }), `Id_SourceAccount: account ${a.locked} is locked.`);
      await fault('AddTranferToOtherAccount', t({ Id_TargetAccount: a.locked }), `Id_TargetAccount: account ${a.locked} is locked.`);
      await fault(
        'AddTranferToOtherAccount',
        t({ Id_SourceAccount: a.inactive }),
        `Id_SourceAccount: account ${a.inactive} is not active.`,
      );
      await fault(
        'AddTranferToOtherAccount',
        t({ Id_TargetAccount: a.inactive }),
        `Id_TargetAccount: account ${a.inactive} is not active.`,
      );
      await fault('AddTranferToOtherAccount', t({ Id_TargetAccount: a.bobOwn }), `Id_TargetAccount: account ${a.bobOwn} does not exist.`);
      for (const amount of [0, -5]) {
        await fault('AddTranferToOtherAccount', t({ Amount: amount }), 'Amount must be a number greater than zero.');
      }
      await fault('AddTranferToOtherAccount', t({ Amount: 0.001 }), 'Amount 0.001 has more decimal places than CZK allows (2).');
      await fault(
        'AddTranferToOtherAccount',
        t({ Amount: 0.1 + 0.2 }),
        'Amount 0.30000000000000004 has more decimal places than CZK allows (2).',
      );
      await fault('AddTranferToOtherAccount', t({ Amount: 1e15 }), 'Amount is larger than the service keeps (15 significant digits).');
      await fault(
        'AddTranferToOtherAccount',
        t({ Id_Category: fx.categories.bobs }),
        `Id_Category: category ${fx.categories.bobs} does not exist.`,
      );
      await fault('AddTranferToOtherAccount', t({ Description: 'x'.repeat(1001) }), 'Description must be at most 1000 characters.');
    });

    it('every rule of an account', async () => {
      const add = (over: Partial<ParamsOf<'AddAccount'>>) => ({
        Name: 'A',
        Description: '',
        Currency: 203,
        Type: 1,
        IsActive: true,
        IsHidden: false,
        Locked: false,
        Ord: 0,
        ...over,
      });
      await fault('AddAccount', add({ Name: '' }), 'Name must be 1 to 100 characters.');
      await fault('AddAccount', add({ Name: '   ' }), 'Name must be 1 to 100 characters.');
      await fault('AddAccount', add({ Name: 'x'.repeat(101) }), 'Name must be 1 to 100 characters.');
      await fault('AddAccount', add({ Currency: 999 }), 'Currency 999 is not an ISO 4217 currency code this service knows.');
      await fault(
        'AddAccount',
        add({ Type: 7 }),
        'Type 7 is not an account type (1 cash, 2 bank account, 3 payment card, 4 savings, 5 loan, 6 other).',
      );
      await fault('AddAccount', add({ Description: 'é'.repeat(1001) }), 'Description must be at most 1000 characters.');
      await fault(
        'EditAccount',
        { Id_Account: fx.accounts.cash, ...add({ Type: 0 }) },
        'Type 0 is not an account type (1 cash, 2 bank account, 3 payment card, 4 savings, 5 loan, 6 other).',
      );
    });

    it('every rule of a category', async () => {
      await fault('AddCategory', { Name: 'FOOD', Id_ParentCategory: 0 }, 'Name: a category named "FOOD" already exists at this level.');
      await fault(
        'AddCategory',
        { Name: 'groceries', Id_ParentCategory: fx.categories.food },
        'Name: a category named "groceries" already exists at this level.',
      );
      await fault('AddCategory', { Name: '', Id_ParentCategory: 0 }, 'Name must be 1 to 100 characters.');
      await fault(
        'EditCategory',
        { Id_Category: fx.categories.car, Name: ' food ' },
        'Name: a category named "food" already exists at this level.',
      );
      await fault('EditCategory', { Id_Category: fx.categories.car, Name: 'x'.repeat(101) }, 'Name must be 1 to 100 characters.');
    });

    it('every rule of a refueling', async () => {
      const r = (over: Partial<ParamsOf<'EditCarFuel'>>) => ({
        CarId: 7,
        Id_CarFuel: 0,
        Liter: 40,
        Price: 1500,
        Tachometer: 1000,
        DateOfPurchase: '2026-01-01T00:00:00',
        Currency: 203,
        Description: '',
        Rate: 1,
        ...over,
      });
      await fault('CarFuelList', { CarId: 0 }, 'CarId must be a positive number.');
      await fault('EditCarFuel', r({ CarId: -3 }), 'CarId must be a positive number.');
      await fault('EditCarFuel', r({ Id_CarFuel: -1 }), 'Id_CarFuel must be 0 for a new refueling or the Id of one.');
      await fault('EditCarFuel', r({ Liter: 0 }), 'Liter must be a number greater than zero.');
      await fault('EditCarFuel', r({ Price: -1 }), 'Price must not be negative.');
      await fault('EditCarFuel', r({ Price: 1.005 }), 'Price 1.005 has more decimal places than CZK allows (2).');
      await fault('EditCarFuel', r({ Tachometer: -1 }), 'Tachometer must not be negative.');
      await fault('EditCarFuel', r({ Rate: 0 }), 'Rate must be a number greater than zero.');
      // Float residue and absurd size are refused; the client's own limits (3 and 6 decimals) pass.
      await fault('EditCarFuel', r({ Liter: 30 + 8.77 }), 'Liter 38.769999999999996 has more than 3 decimal places.');
      await fault('EditCarFuel', r({ Liter: 1e21 }), 'Liter is larger than the service keeps (15 significant digits).');
      await fault('EditCarFuel', r({ Currency: 978, Rate: 25.1234567 }), 'Rate 25.1234567 has more than 6 decimal places.');
      expect((await callRaw(service, binding, 'EditCarFuel', ANN, r({ Liter: 40.125, Currency: 978, Rate: 25.123456 }))).status).toBe(200);
      await fault('EditCarFuel', r({ Rate: 25 }), 'Rate must be 1 for a refueling in your own currency (CZK).');
      await fault('EditCarFuel', r({ Currency: 1 }), 'Currency 1 is not an ISO 4217 currency code this service knows.');
    });

    it('a missing parameter, a mistyped one, and the password under the other spelling', async () => {
      const soap = binding === 'soap11' || binding === 'soap12';
      const tx = request(binding, 'TransactionListLast50_2', { AccountId: fx.accounts.bank });
      const missing = soap ? edit(tx, /<AccountId>\d+<\/AccountId>/, '') : edit(tx, /&AccountId=\d+/, '');
      await expectFault(binding, await send(service.url, missing), 'Missing parameter: AccountId.');
      const typo = soap ? edit(tx, /<AccountId>\d+</, '<AccountId>twelve<') : edit(tx, /AccountId=\d+/, 'AccountId=twelve');
      await expectFault(binding, await send(service.url, typo), 'AccountId must be a long (a whole number).');
      const list = request(binding, 'AccountList2', {});
      const spelling = soap ? edit(list, /userPassword>/g, 'UserPassword>') : edit(list, 'userPassword=', 'UserPassword=');
      await expectFault(binding, await send(service.url, spelling), 'Missing parameter: userPassword.');

      const add = request(binding, 'AddAccount', {
        Name: 'A',
        Description: '',
        Currency: 203,
        Type: 1,
        IsActive: true,
        IsHidden: false,
        Locked: false,
        Ord: 0,
      });
      const bool = soap ? edit(add, '<IsActive>true<', '<IsActive>maybe<') : edit(add, 'IsActive=true', 'IsActive=maybe');
      await expectFault(binding, await send(service.url, bool), 'IsActive must be a boolean (true or false).');
      const transfer = request(binding, 'AddTranferToOtherAccount', {
        Amount: 1,
        Description: '',
        Id_SourceAccount: 1,
        Id_TargetAccount: 2,
        Id_Category: 0,
        PaymentDate: '2026-01-01T00:00:00',
      });
      const date = soap ? edit(transfer, '2026-01-01T00:00:00', 'tomorrow') : edit(transfer, '2026-01-01T00%3A00%3A00', 'tomorrow');
      await expectFault(binding, await send(service.url, date), 'PaymentDate must be a dateTime (YYYY-MM-DDThh:mm:ss).');
      const amount = soap ? edit(transfer, '<Amount>1<', '<Amount>1,5<') : edit(transfer, 'Amount=1', 'Amount=1%2C5');
      await expectFault(binding, await send(service.url, amount), 'Amount must be a number.');
      const huge = soap
        ? edit(tx, /<AccountId>\d+</, '<AccountId>9007199254740993<')
        : edit(tx, /AccountId=\d+/, 'AccountId=9007199254740993');
      await expectFault(
        binding,
        await send(service.url, huge),
        'AccountId is 9007199254740993, beyond 2^53, which this program cannot hold exactly.',
      );
      // The typed value is checked before the credentials: the parameter is named even with a wrong password.
      const badBoth = request(binding, 'TransactionListLast50_2', { AccountId: 1 }, { ...ANN, password: 'wrong' });
      const typoBoth = soap ? edit(badBoth, /<AccountId>\d+</, '<AccountId>x<') : edit(badBoth, /AccountId=\d+/, 'AccountId=x');
      await expectFault(binding, await send(service.url, typoBoth), 'AccountId must be a long (a whole number).');
    });
  });

  describe('SOAP only', () => {
    it.each(['soap11', 'soap12'] as const)('%s: an unknown SOAPAction', async (binding) => {
      const req = request(binding, 'AccountList2', {});
      const headers: Record<string, string> =
        binding === 'soap11'
          ? { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}DropTables"` }
          : { 'Content-Type': `application/soap+xml; charset=utf-8; action="${NS}DropTables"` };
      const res = await send(service.url, { ...req, headers });
      await expectFault(binding, res, `Server did not recognize the value of HTTP Header SOAPAction: ${NS}DropTables.`);
    });

    it.each(['soap11', 'soap12'] as const)(
      '%s: children in any order, unknown children ignored, no action routes by the Body',
      async (binding) => {
        const req = request(binding, 'TransactionListLast50_2', { AccountId: fx.accounts.bank });
        const reordered = edit(req, /(<APIClientKey>.*<\/APIClientKey>)(.*)(<\/TransactionListLast50_2>)/, '<Extra>1</Extra>$2$1$3');
        const headers =
          binding === 'soap11' ? { 'Content-Type': 'text/xml; charset=utf-8' } : { 'Content-Type': 'application/soap+xml; charset=utf-8' };
        const res = await send(service.url, { ...reordered, headers });
        expect(res.status, res.body).toBe(200);
        expect(res.body).toContain('<TransactionListLast50_2Result><Data><apiTransaction2>');
      },
    );

    it.each(['soap11', 'soap12'] as const)('%s: malformed XML and a DOCTYPE are 400 Client faults', async (binding) => {
      const req = request(binding, 'AccountList2', {});
      for (const body of [req.body.slice(0, -20), '<a><b></a>', 'not xml at all', `<!DOCTYPE x [<!ENTITY e "x">]>${req.body.slice(38)}`]) {
        const res = await send(service.url, { ...req, body });
        const f = faultOf(binding, res);
        expect(f.status).toBe(400);
        expect(f.code).toBe(CLIENT_CODE[binding]);
        expect(f.message).toMatch(/^(Malformed XML|A DOCTYPE)/);
      }
    });

    it.each(['soap11', 'soap12'] as const)(
      '%s: well-formed XML that is no envelope is a 500 Client fault, as every fault but unparsable XML',
      async (binding) => {
        const req = request(binding, 'AccountList2', {});
        const f = faultOf(binding, await send(service.url, { ...req, body: '<hello/>' }));
        expect(f).toEqual({
          code: CLIENT_CODE[binding],
          message: `The request is not a SOAP ${binding === 'soap11' ? '1.1' : '1.2'} envelope (namespace ${binding === 'soap11' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope'}).`,
          status: 500,
        });
      },
    );

    it.each(['soap11', 'soap12'] as const)('%s: XML nested deeper than the parse limit is refused before it is read', async (binding) => {
      const req = request(binding, 'AccountList2', {});
      const deep = edit(req, '<APIClientKey>', `${'<x>'.repeat(20)}${'</x>'.repeat(20)}<APIClientKey>`);
      expect(faultOf(binding, await send(service.url, deep))).toEqual({
        code: CLIENT_CODE[binding],
        message: 'The XML document nests deeper than 16 elements.',
        status: 400,
      });
    });

    it.each(['soap11', 'soap12'] as const)('%s: an unknown operation in the Body is a Client fault', async (binding) => {
      const req = request(binding, 'AccountList2', {});
      const res = await send(service.url, {
        ...edit(req, /AccountList2/g, 'DropTables'),
        headers: { 'Content-Type': req.headers['Content-Type']!.split(';').slice(0, 2).join(';') },
      });
      await expectFault(binding, res, 'Unknown operation: "DropTables".');
    });

    it.each(['soap11', 'soap12'] as const)(
      '%s: a body over the limit gets 413, invalid UTF-8 400, another charset 415',
      async (binding) => {
        const req = request(binding, 'AccountList2', {});
        const big = edit(req, '<APIClientKey>', `<Pad>${'x'.repeat(1024 * 1024)}</Pad><APIClientKey>`);
        const f = faultOf(binding, await send(service.url, big));
        expect(f).toEqual({ code: CLIENT_CODE[binding], message: 'The request is larger than 1048576 bytes.', status: 413 });
        const res = await fetch(service.url + req.path, {
          method: 'POST',
          headers: req.headers,
          body: Buffer.concat([Buffer.from(req.body.slice(0, 100)), Buffer.from([0xc3, 0x28]), Buffer.from(req.body.slice(100))]),
        });
        const text = await res.text();
        expect(
          faultOf(binding, { status: res.status, contentType: res.headers.get('content-type')!, body: text, headers: res.headers }),
        ).toEqual({
          code: CLIENT_CODE[binding],
          message: 'The request is not valid UTF-8.',
          status: 400,
        });
        const latin = await send(service.url, {
          ...req,
          headers: { ...req.headers, 'Content-Type': req.headers['Content-Type']!.replace('utf-8', 'iso-8859-1') },
        });
        expect(faultOf(binding, latin)).toEqual({
          code: CLIENT_CODE[binding],
          message: 'The request must be encoded in UTF-8.',
          status: 415,
        });
      },
    );
  });

  describe('HTTP GET and POST only', () => {
    it('an unknown operation name is 404 in plain text', async () => {
      for (const method of ['GET', 'POST'] as const) {
        const res = await fetch(`${service.url}/API/APIservice.asmx/DropTables${method === 'GET' ? '?a=1' : ''}`, {
          method,
          ...(method === 'POST' ? { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=1' } : {}),
        });
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        expect(await res.text()).toBe('Unknown operation: "DropTables".');
      }
    });

    it('a form in another charset is 415, escapes that are not UTF-8 are 400: never a silent U+FFFD', async () => {
      const add = request('httpPost', 'AddAccount', {
        Name: 'Café',
        Description: '',
        Currency: 203,
        Type: 1,
        IsActive: true,
        IsHidden: false,
        Locked: false,
        Ord: 0,
      });
      const latin1 = { ...add, headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=iso-8859-1' } };
      expect(faultOf('httpPost', await send(service.url, latin1))).toEqual({
        code: 'text',
        message: 'The request must be encoded in UTF-8.',
        status: 415,
      });
      expect(faultOf('httpPost', await send(service.url, edit(add, 'Caf%C3%A9', 'Caf%E9')))).toEqual({
        code: 'text',
        message: 'The request is not valid UTF-8.',
        status: 400,
      });
      const get = request('httpGet', 'AddAccount', {
        Name: 'Café',
        Description: '',
        Currency: 203,
        Type: 1,
        IsActive: true,
        IsHidden: false,
        Locked: false,
        Ord: 0,
      });
      expect(faultOf('httpGet', await send(service.url, edit(get, 'Caf%C3%A9', 'Caf%E9')))).toEqual({
        code: 'text',
        message: 'The request is not valid UTF-8.',
        status: 400,
      });
      const accounts = await callRaw(service, 'soap12', 'AccountList2', ANN, {});
      expect(accounts.body).not.toContain('Caf\uFFFD');
      expect((await send(service.url, add)).status).toBe(200);
    });

    it('a POST that is not a form is 415; a form over the limit 413', async () => {
      const res = await fetch(`${service.url}/API/APIservice.asmx/AccountList2`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(415);
      expect(await res.text()).toBe('The HTTP POST binding takes application/x-www-form-urlencoded.');
      const big = request('httpPost', 'AccountList2', {});
      const f = faultOf('httpPost', await send(service.url, { ...big, body: `${big.body}&pad=${'x'.repeat(1024 * 1024)}` }));
      expect(f).toEqual({ code: 'text', message: 'The request is larger than 1048576 bytes.', status: 413 });
    });
  });

  describe('a client that goes away', () => {
    it('in the middle of its body is no failure of the service', async () => {
      const { connect } = await import('node:net');
      logged.length = 0;
      await new Promise<void>((resolve) => {
        // Headers asking for a "100 Continue": once it comes, the service has the request and waits for its
        // body. Part of the body, and the client is gone.
        const socket = connect(service.port, '127.0.0.1', () => {
          socket.write(
            'POST /API/APIservice.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: 500\r\nExpect: 100-continue\r\n\r\n',
          );
        });
        socket.once('data', (d: Buffer) => {
          expect(d.toString('latin1')).toMatch(/^HTTP\/1\.1 100 Continue/);
          socket.write('<soap:Env', () => socket.destroy());
        });
        socket.on('close', () => resolve());
      });
      // Another client answered since: the service has been through the first one's going away.
      expect((await callRaw(service, 'soap12', 'AccountList2', ANN, {})).status).toBe(200);
      expect(logged).toEqual([]);
    });
  });

  describe("the service's own failures", () => {
    it('are a Server fault with a generic message: no SQL, no path, no stack; the cause is logged', async () => {
      await service.failInserts('categories', 'injected failure in /secret/path.sqlite');
      try {
        for (const binding of BINDINGS) {
          logged.length = 0;
          const res = await callRaw(service, binding, 'AddCategory', ANN, { Name: `Fails ${binding}`, Id_ParentCategory: 0 });
          await expectFault(binding, res, 'Server was unable to process request.', 500, SERVER_CODE[binding]);
          expect(res.body).not.toMatch(/injected|secret|sqlite|SQL|at .*\.ts/i);
          expect(logged.join('\n')).toContain('injected failure');
        }
      } finally {
        await service.failInserts('categories', null);
      }
    });
  });

  describe.each(['soap11', 'soap12'] as const)('strict like ASMX, over %s', (binding) => {
    // buildRequest's envelope prefix.
    const soap = binding === 'soap11' ? 'soap' : 'soap12';
    const list = () => request(binding, 'AccountListWithAmount2', {});

    it('an operation element outside the service namespace, or in none, is a Client fault', async () => {
      const other = edit(list(), `<AccountListWithAmount2 xmlns="${NS}">`, '<AccountListWithAmount2 xmlns="http://example.com/other/">');
      await expectFault(
        binding,
        await send(service.url, other),
        `The operation element "AccountListWithAmount2" is in the namespace "http://example.com/other/", not in the service's namespace "${NS}".`,
      );
      const none = edit(list(), `<AccountListWithAmount2 xmlns="${NS}">`, '<AccountListWithAmount2>');
      await expectFault(
        binding,
        await send(service.url, none),
        `The operation element "AccountListWithAmount2" is in the namespace "(none)", not in the service's namespace "${NS}".`,
      );
    });

    it('exactly one Body', async () => {
      const req = list();
      const body = new RegExp(`<${soap}:Body>[\\s\\S]*</${soap}:Body>`).exec(req.body)![0];
      await expectFault(binding, await send(service.url, edit(req, body, body + body)), 'The SOAP envelope holds more than one Body.');
    });

    it('a header it does not understand, marked mustUnderstand, gets the MustUnderstand fault; unmarked it is ignored', async () => {
      const marked = (value: string) =>
        `<${soap}:Header><t:Trace xmlns:t="urn:trace" ${soap}:mustUnderstand="${value}">1</t:Trace></${soap}:Header><${soap}:Body>`;
      for (const value of binding === 'soap12' ? ['1', 'true'] : ['1']) {
        await expectFault(
          binding,
          await send(service.url, edit(list(), `<${soap}:Body>`, marked(value))),
          'SOAP header "Trace" was not understood.',
          500,
          'soap:MustUnderstand',
        );
      }
      const ignored = await send(service.url, edit(list(), `<${soap}:Body>`, marked('0')));
      expect(ignored.status).toBe(200);
    });

    it('a NUL or other control character, raw or as a reference, is a Client fault with 400, never a 500 of ours', async () => {
      for (const c of ['\u0000', '\u0001', '&#0;', '&#x1B;']) {
        const res = await send(service.url, edit(list(), `<UserLogin>${ANN.login}`, `<UserLogin>${ANN.login}${c}`));
        const fault = faultOf(binding, res);
        expect(fault.status).toBe(400);
        expect(fault.code).toBe(CLIENT_CODE[binding]);
        expect(fault.message).toMatch(/^Malformed XML: /);
      }
    });

    it('a charset other than UTF-8 is refused with 415', async () => {
      const req = list();
      const res = await send(service.url, {
        ...req,
        headers: { ...req.headers, 'Content-Type': req.headers['Content-Type']!.replace('utf-8', 'iso-8859-2') },
      });
      await expectFault(binding, res, 'The request must be encoded in UTF-8.', 415);
    });
  });
});
