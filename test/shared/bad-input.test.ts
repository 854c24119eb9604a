/** Hostile and broken input: each gives a clear typed error, never a crash, a hang or a wrong value. */
import { describe, expect, it } from 'vitest';
import {
  WireError,
  buildRequest,
  buildResponse,
  parseRequest,
  parseResponse,
  parseXml,
  escapeText,
  faultForWireError,
  type IncomingRequest,
} from '../../src-shared/wire';
import { caught } from '../support/caught';

const NS = 'http://tempuri.org/';
const opts = { namespace: NS, timeZone: 'UTC' };
const creds = { clientKey: 'k', login: 'l', password: 'p' };

function soap12(inner: string): IncomingRequest {
  return {
    method: 'POST',
    contentType: 'application/soap+xml; charset=utf-8',
    body: `<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body>${inner}</soap:Body></soap:Envelope>`,
  };
}
const txList = (accountId: string) =>
  soap12(
    `<TransactionListLast50_2 xmlns="${NS}"><APIClientKey>k</APIClientKey><UserLogin>l</UserLogin>` +
      `<UserPassword>p</UserPassword><AccountId>${accountId}</AccountId></TransactionListLast50_2>`,
  );

const wireError = (fn: () => unknown): WireError => caught(fn, WireError);

describe('XML that must be refused', () => {
  it('malformed XML', () => {
    for (const bad of [
      '',
      '<a>',
      '<a></b>',
      'not xml',
      '<a><b></a></b>',
      '<a x=1/>',
      '<a/><a/>',
      '<a x="1" x="2"/>',
      '<p:a/>',
      '<a>x</a>trailing',
      // XML 1.1 would admit a control character as a reference; this reader is XML 1.0 whatever the declaration.
      '<?xml version="1.1"?><a>&#x1;</a>',
    ]) {
      expect(wireError(() => parseXml(bad)).code).toBe('malformed-xml');
    }
  });

  it('billion laughs: refused before any entity is read', () => {
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">' +
      Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('') +
      ']><lolz>&lol9;</lolz>';
    // Refused at the DOCTYPE: read any further, the reference would expand to three billion characters, and
    // the test would run out of memory or time instead of passing.
    expect(wireError(() => parseXml(bomb)).code).toBe('doctype-forbidden');
  });

  it('an external entity (XXE) in a request', () => {
    const req = soap12('<AccountList2/>');
    req.body = `<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${req.body!.replace('<AccountList2/>', '<AccountList2>&xxe;</AccountList2>')}`;
    expect(wireError(() => parseRequest('soap12', req, opts)).code).toBe('doctype-forbidden');
  });

  it('an undeclared entity', () => {
    expect(wireError(() => parseXml('<a>&nbsp;</a>')).code).toBe('malformed-xml');
  });

  it('a huge document', () => {
    const huge = `<a>${'<b>x</b>'.repeat(200_000)}</a>`;
    expect(wireError(() => parseXml(huge, { maxChars: 1_000_000, maxDepth: 64 })).code).toBe('too-large');
    const req = soap12(`<AccountList2>${'<pad>0123456789</pad>'.repeat(60_000)}</AccountList2>`);
    expect(wireError(() => parseRequest('soap12', req, opts)).code).toBe('too-large');
  });

  it('a deeply nested document', () => {
    const deep = `${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}`;
    expect(wireError(() => parseXml(deep)).code).toBe('too-deep');
  });
});

describe('the XML reader after a refused document', () => {
  // The reader's parser is reused from one document to the next: nothing of a document it refused
  // halfway (open elements, a namespace prefix, depth, text) may reach the next one.
  const expected = {
    local: 'r',
    ns: 'urn:x',
    attrs: [{ local: 'a', ns: '', value: '1' }],
    children: [{ local: 'c', ns: 'urn:x', attrs: [], children: [], text: 'text' }],
    text: '',
    // Only its own declaration: none of the refused document's prefixes.
    declares: { '': 'urn:x' },
  };
  it('reads the next document whole and alone', () => {
    const good = '<r xmlns="urn:x" a="1"><c>text</c></r>';
    expect(parseXml(good)).toEqual(expected);
    for (const bad of ['<p:a xmlns:p="urn:p"><p:b>half', '<a><b></a>', `${'<a>'.repeat(100)}x`, '<a>&nbsp;</a>', '<a/><b/>']) {
      expect(() => parseXml(bad, { maxChars: 1000, maxDepth: 50 })).toThrow(WireError);
      expect(parseXml(good)).toEqual(expected);
      // A prefix the refused document declared is not declared in the next.
      expect(wireError(() => parseXml('<p:b/>')).code).toBe('malformed-xml');
    }
    // Two good documents in a row: the second is not mixed with the first.
    expect(parseXml('<x>1</x>')).toEqual({ local: 'x', ns: '', attrs: [], children: [], text: '1' });
    expect(parseXml(good)).toEqual(expected);
  });
});

describe('requests that must be refused, naming the parameter', () => {
  it('2^53+1 as an id', () => {
    const e = wireError(() => parseRequest('soap12', txList('9007199254740993'), opts));
    expect(e.code).toBe('invalid-value');
    expect(e.subject).toBe('AccountId');
    expect(e.message).toContain('AccountId');
  });

  it('wrong types', () => {
    expect(wireError(() => parseRequest('soap12', txList('twelve'), opts)).message).toBe('AccountId must be a long (a whole number).');
    const get: IncomingRequest = {
      method: 'GET',
      pathOperation: 'AddAccount',
      query:
        'APIClientKey=k&UserLogin=l&UserPassword=p&Name=A&Description=&Currency=203&Type=1&IsActive=maybe&IsHidden=false&Locked=false&Ord=1',
    };
    expect(wireError(() => parseRequest('httpGet', get, opts)).subject).toBe('IsActive');
  });

  it('a missing element', () => {
    const req = soap12(
      `<TransactionListLast50_2 xmlns="${NS}"><APIClientKey>k</APIClientKey><UserLogin>l</UserLogin><UserPassword>p</UserPassword></TransactionListLast50_2>`,
    );
    const e = wireError(() => parseRequest('soap12', req, opts));
    expect(e.code).toBe('missing-parameter');
    expect(e.message).toBe('Missing parameter: AccountId.');
  });

  it('a password under the other operation family spelling is missing, not accepted', () => {
    const req = soap12(
      `<AccountList2 xmlns="${NS}"><APIClientKey>k</APIClientKey><UserLogin>l</UserLogin><UserPassword>p</UserPassword></AccountList2>`,
    );
    expect(wireError(() => parseRequest('soap12', req, opts)).message).toBe('Missing parameter: userPassword.');
  });

  it('a nil, a duplicated or a structured parameter', () => {
    const nil = txList('1');
    nil.body = nil.body!.replace(
      '<AccountId>1</AccountId>',
      '<AccountId xmlns:i="http://www.w3.org/2001/XMLSchema-instance" i:nil="true"/>',
    );
    expect(wireError(() => parseRequest('soap12', nil, opts)).code).toBe('missing-parameter');
    const dup = txList('1');
    dup.body = dup.body!.replace('<AccountId>1</AccountId>', '<AccountId>1</AccountId><AccountId>2</AccountId>');
    expect(wireError(() => parseRequest('soap12', dup, opts)).code).toBe('duplicate-parameter');
    const deep = txList('<x>1</x>');
    expect(wireError(() => parseRequest('soap12', deep, opts)).code).toBe('invalid-value');
  });

  it('an unknown SOAPAction, and an action that names another element than the Body holds', () => {
    const req = buildRequest('soap11', { operation: 'AccountList2', credentials: creds, params: {} }, NS);
    const incoming = { method: 'POST', contentType: req.headers['Content-Type'], body: req.body };
    const e = wireError(() => parseRequest('soap11', { ...incoming, soapAction: '"http://tempuri.org/DropTables"' }, opts));
    expect(e.code).toBe('unknown-soap-action');
    expect(e.message).toBe('Server did not recognize the value of HTTP Header SOAPAction: http://tempuri.org/DropTables.');
    expect(wireError(() => parseRequest('soap11', { ...incoming, soapAction: '"http://tempuri.org/CategoryTree"' }, opts)).code).toBe(
      'not-an-envelope',
    );
  });

  it('a SOAP 1.1 envelope sent as SOAP 1.2, and a body that is no envelope', () => {
    const req = buildRequest('soap11', { operation: 'AccountList2', credentials: creds, params: {} }, NS);
    expect(wireError(() => parseRequest('soap12', { method: 'POST', body: req.body }, opts)).code).toBe('not-an-envelope');
    expect(wireError(() => parseRequest('soap12', { method: 'POST', body: '<hello/>' }, opts)).code).toBe('not-an-envelope');
  });

  it('an unknown operation on GET is a 404', () => {
    const e = wireError(() => parseRequest('httpGet', { method: 'GET', pathOperation: 'Nope', query: '' }, opts));
    expect(e.code).toBe('unknown-operation');
    expect(e.httpStatus).toBe(404);
    expect(faultForWireError('httpGet', e).status).toBe(404);
  });

  it('an unknown operation in a SOAP Body is a Client fault with 500, like every SOAP fault but a parse failure', () => {
    const e = wireError(() => parseRequest('soap12', soap12('<Nope/>'), opts));
    expect(e.code).toBe('unknown-operation');
    const fault = faultForWireError('soap12', e);
    expect(fault.status).toBe(500);
    expect(fault.body).toContain('<soap:Value>soap:Sender</soap:Value>');
    expect(
      faultForWireError(
        'soap12',
        wireError(() => parseRequest('soap12', soap12('<a'), opts)),
      ).status,
    ).toBe(400);
  });

  it('a control character XML cannot carry', () => {
    const get: IncomingRequest = {
      method: 'GET',
      pathOperation: 'AddCategory',
      query: 'APIClientKey=k&UserLogin=l&UserPassword=p&Name=a%00b&Id_ParentCategory=0',
    };
    expect(wireError(() => parseRequest('httpGet', get, opts)).subject).toBe('Name');
    expect(() => escapeText('a\u0001b')).toThrow(WireError);
  });
});

describe('responses that must be refused', () => {
  const ok = (body: string) => ({ status: 200, contentType: 'text/xml', body });
  it('an id beyond 2^53 in a record', () => {
    const body = buildResponse('httpGet', 'CarFuelList', [], NS).body.replace(
      '<Data />',
      '<Data><apiCarFuel><Id>9007199254740993</Id></apiCarFuel></Data>',
    );
    expect(wireError(() => parseResponse('CarFuelList', ok(body), opts)).subject).toBe('apiCarFuel.Id');
  });
  it('a record without its id, and a single result without Data', () => {
    const body = `<apiResultAccountList2 xmlns="${NS}"><Data><apiAccount2><Name>x</Name></apiAccount2></Data></apiResultAccountList2>`;
    expect(wireError(() => parseResponse('AccountList2', ok(body), opts)).code).toBe('missing-element');
    expect(wireError(() => parseResponse('AddAccount', ok(`<apiResultAddAccount/>`), opts)).code).toBe('missing-element');
  });
  it('the answer of another operation', () => {
    const other = buildResponse('soap12', 'CategoryTree', { FavoritCategories: [], AllCategories: [] }, NS);
    expect(wireError(() => parseResponse('AccountList2', other, opts)).code).toBe('unexpected-response');
  });
  it('a wrong status with an HTML page', () => {
    const e = wireError(() => parseResponse('AccountList2', { status: 502, contentType: 'text/html', body: '<html>Bad gateway' }, opts));
    expect(e.code).toBe('unexpected-response');
  });
  it('a truncated answer', () => {
    const full = buildResponse('soap12', 'AccountList2', [], NS).body;
    expect(wireError(() => parseResponse('AccountList2', ok(full.slice(0, full.length / 2)), opts)).code).toBe('malformed-xml');
  });
});
