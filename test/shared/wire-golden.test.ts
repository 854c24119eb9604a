/**
 * Wire text written out by hand from the interface document and the wire example of
 * service-decisions.md: element names, order, namespaces, content types, the odd spellings.
 */
import { describe, expect, it } from 'vitest';
import type { ApiAccount2, ApiCategoryTree, ApiTransferPair } from '../../src-shared/catalog';
import { buildFault, buildRequest, buildResponse, parseResponse, ServiceFault } from '../../src-shared/wire';

const NS = 'http://tempuri.org/';
const DECL = '<?xml version="1.0" encoding="utf-8"?>';
const XSI_XSD = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';
const creds = { clientKey: 'k', login: 'demo', password: 'pw' };
const opts = { timeZone: 'Europe/Prague' };

const wallet: ApiAccount2 = {
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
};
const WALLET_XML =
  '<apiAccount2><Id>12</Id><Name>Wallet</Name><Type>1</Type><Currency>203</Currency><IsActive>true</IsActive>' +
  '<Locked>false</Locked><Description /><Ord>1</Ord><UserAccountPermission>3</UserAccountPermission>' +
  '<Amount>1520.5</Amount><IsHidden>false</IsHidden></apiAccount2>';

describe('responses as ASMX writes them', () => {
  it('AccountList2 over SOAP 1.2', () => {
    const res = buildResponse('soap12', 'AccountList2', [wallet], NS);
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/soap+xml; charset=utf-8');
    expect(res.body).toBe(
      `${DECL}<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" ${XSI_XSD}><soap:Body>` +
        `<AccountList2Response xmlns="${NS}"><AccountList2Result><Data>${WALLET_XML}</Data></AccountList2Result>` +
        '</AccountList2Response></soap:Body></soap:Envelope>',
    );
  });

  it('AccountList2 over SOAP 1.1 differs only in the envelope namespace and content type', () => {
    const res = buildResponse('soap11', 'AccountList2', [wallet], NS);
    expect(res.contentType).toBe('text/xml; charset=utf-8');
    expect(res.body).toBe(
      buildResponse('soap12', 'AccountList2', [wallet], NS).body.replace(
        'http://www.w3.org/2003/05/soap-envelope',
        'http://schemas.xmlsoap.org/soap/envelope/',
      ),
    );
  });

  it('AccountListWithAmount2 over GET answers under apiResultAccountList2', () => {
    const res = buildResponse('httpGet', 'AccountListWithAmount2', [], NS);
    expect(res.contentType).toBe('text/xml; charset=utf-8');
    expect(res.body).toBe(`${DECL}\n<apiResultAccountList2 ${XSI_XSD} xmlns="${NS}"><Data /></apiResultAccountList2>`);
  });

  it('the transfer has Transaction1 and Transaction2 and no Data, under the differently spelled root', () => {
    const t = { Id_User: 1, Id_UserCreated: 1, PaymentDate: '2026-11-21T14:05:00', Type: 3, Description: 'Rent', Id_Category: 0 };
    const pair: ApiTransferPair = {
      Transaction1: { Id: 501, ...t, Id_Account: 12, Amount: -0.3 },
      Transaction2: { Id: 502, ...t, Id_Account: 13, Amount: 0.3 },
    };
    const tx = (id: number, acc: number, amt: string) =>
      `<Id>${id}</Id><Id_User>1</Id_User><Id_UserCreated>1</Id_UserCreated><Id_Account>${acc}</Id_Account>` +
      `<PaymentDate>2026-11-21T14:05:00</PaymentDate><Type>3</Type><Amount>${amt}</Amount><Description>Rent</Description><Id_Category>0</Id_Category>`;
    expect(buildResponse('httpPost', 'AddTranferToOtherAccount', pair, NS).body).toBe(
      `${DECL}\n<apiResultAddTransferToOtherAccount ${XSI_XSD} xmlns="${NS}">` +
        `<Transaction1>${tx(501, 12, '-0.3')}</Transaction1><Transaction2>${tx(502, 13, '0.3')}</Transaction2>` +
        '</apiResultAddTransferToOtherAccount>',
    );
    expect(buildResponse('soap12', 'AddTranferToOtherAccount', pair, NS).body).toContain(
      `<AddTranferToOtherAccountResult><Transaction1>${tx(501, 12, '-0.3')}</Transaction1>`,
    );
  });

  it('the category tree spells FavoritCategories and writes nil ChildCategories', () => {
    const tree: ApiCategoryTree = {
      FavoritCategories: [{ Id: 3, Name: 'Fuel', ChildCategories: null }],
      AllCategories: [{ Id: 1, Name: 'Car', ChildCategories: [{ Id: 3, Name: 'Fuel', ChildCategories: null }] }],
    };
    const fuel = '<apiCategory><Id>3</Id><Name>Fuel</Name><ChildCategories xsi:nil="true" /></apiCategory>';
    expect(buildResponse('httpGet', 'CategoryTree', tree, NS).body).toBe(
      `${DECL}\n<apiResultCategoryTree ${XSI_XSD} xmlns="${NS}"><Data><FavoritCategories>${fuel}</FavoritCategories>` +
        `<AllCategories><apiCategory><Id>1</Id><Name>Car</Name><ChildCategories>${fuel}</ChildCategories></apiCategory></AllCategories>` +
        '</Data></apiResultCategoryTree>',
    );
  });

  it('EditCarFuel answers one apiCarFuel under Data', () => {
    const fuel = {
      Id: 9,
      Id_UserCreated: 1,
      DateOfPurchase: '2026-11-20T07:30:00',
      Id_Car: 1,
      Tachometer: 120500,
      Liter: 41.27,
      Price: 1650.8,
      Description: 'Shell D1',
      Currency: 203,
      Rate: 1,
    };
    expect(buildResponse('httpGet', 'EditCarFuel', fuel, NS).body).toBe(
      `${DECL}\n<apiResultEditCarFuel ${XSI_XSD} xmlns="${NS}"><Data><Id>9</Id><Id_UserCreated>1</Id_UserCreated>` +
        '<DateOfPurchase>2026-11-20T07:30:00</DateOfPurchase><Id_Car>1</Id_Car><Tachometer>120500</Tachometer>' +
        '<Liter>41.27</Liter><Price>1650.8</Price><Description>Shell D1</Description><Currency>203</Currency><Rate>1</Rate>' +
        '</Data></apiResultEditCarFuel>',
    );
  });
});

describe('faults as ASMX writes them', () => {
  it('SOAP 1.1', () => {
    const f = buildFault('soap11', { code: 'Client', message: 'Invalid credentials' });
    expect(f.status).toBe(500);
    expect(f.contentType).toBe('text/xml; charset=utf-8');
    expect(f.body).toBe(
      `${DECL}<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ${XSI_XSD}><soap:Body><soap:Fault>` +
        '<faultcode>soap:Client</faultcode><faultstring>Invalid credentials</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>',
    );
  });
  it('SOAP 1.2', () => {
    const f = buildFault('soap12', { code: 'Server', message: 'Boom' });
    expect(f.contentType).toBe('application/soap+xml; charset=utf-8');
    expect(f.body).toContain(
      '<soap:Fault><soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">Boom</soap:Text></soap:Reason><soap:Detail /></soap:Fault>',
    );
  });
  it('GET and POST answer text', () => {
    expect(buildFault('httpGet', { code: 'Client', message: 'Missing parameter: AccountId.' })).toEqual({
      status: 500,
      contentType: 'text/plain; charset=utf-8',
      body: 'Missing parameter: AccountId.',
    });
  });
});

describe('requests', () => {
  it('SOAP 1.1 carries SOAPAction and the parameters in order, with the operation password name', () => {
    const req = buildRequest('soap11', { operation: 'TransactionListLast50_2', credentials: creds, params: { AccountId: 12 } }, NS);
    expect(req).toEqual({
      method: 'POST',
      path: '/API/APIservice.asmx',
      headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '"http://tempuri.org/TransactionListLast50_2"' },
      body:
        `${DECL}<soap:Envelope ${XSI_XSD} xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
        `<TransactionListLast50_2 xmlns="${NS}"><APIClientKey>k</APIClientKey><UserLogin>demo</UserLogin>` +
        '<UserPassword>pw</UserPassword><AccountId>12</AccountId></TransactionListLast50_2></soap:Body></soap:Envelope>',
    });
  });
  it('SOAP 1.2 has no SOAPAction header; the action travels in the content type', () => {
    const req = buildRequest('soap12', { operation: 'AccountList2', credentials: creds, params: {} }, NS);
    expect(req.headers).toEqual({ 'Content-Type': 'application/soap+xml; charset=utf-8; action="http://tempuri.org/AccountList2"' });
    expect(req.body).toContain('xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"');
    expect(req.body).toContain('<userPassword>pw</userPassword>');
  });
  it('GET puts every parameter in the query string as text', () => {
    const req = buildRequest('httpGet', { operation: 'CarFuelList', credentials: creds, params: { CarId: 2 } }, NS);
    expect(req.path).toBe('/API/APIservice.asmx/CarFuelList?APIClientKey=k&UserLogin=demo&userPassword=pw&CarId=2');
    expect(req.method).toBe('GET');
  });
  it('POST sends a form', () => {
    const req = buildRequest(
      'httpPost',
      { operation: 'AddCategory', credentials: creds, params: { Name: 'Fuel & oil', Id_ParentCategory: 0 } },
      NS,
    );
    expect(req.path).toBe('/API/APIservice.asmx/AddCategory');
    expect(req.headers).toEqual({ 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(req.body).toBe('APIClientKey=k&UserLogin=demo&UserPassword=pw&Name=Fuel+%26+oil&Id_ParentCategory=0');
  });
});

describe('responses from services we did not write', () => {
  const soap = (ns: string, prefix: string, inner: string) =>
    `<${prefix}:Envelope xmlns:${prefix}="${ns}"><${prefix}:Body>${inner}</${prefix}:Body></${prefix}:Envelope>`;
  const ok = (body: string, contentType = 'application/soap+xml') => ({ status: 200, contentType, body });

  it('reads a SOAP 1.1 answer to a SOAP 1.2 call, with prefixed result elements and extra elements', () => {
    const body = soap(
      'http://schemas.xmlsoap.org/soap/envelope/',
      'SOAP-ENV',
      '<ns1:AccountList2Response xmlns:ns1="urn:other"><ns1:AccountList2Result><ns1:Extra>x</ns1:Extra><ns1:Data>' +
        '<ns1:apiAccount2><ns1:Name>Cash</ns1:Name><ns1:Id>7</ns1:Id><ns1:Unknown><deep/></ns1:Unknown>' +
        '<ns1:Amount>  -12.25 </ns1:Amount><ns1:IsActive>1</ns1:IsActive></ns1:apiAccount2>' +
        '<ns1:apiAccount2 xmlns:i="http://www.w3.org/2001/XMLSchema-instance" i:nil="true"/>' +
        '</ns1:Data></ns1:AccountList2Result></ns1:AccountList2Response>',
    );
    expect(parseResponse('AccountList2', ok(body, 'text/xml'), opts)).toEqual([
      {
        Id: 7,
        Name: 'Cash',
        Type: 0,
        Currency: 0,
        IsActive: true,
        Locked: false,
        Description: '',
        Ord: 0,
        UserAccountPermission: 0,
        Amount: -12.25,
        IsHidden: false,
      },
    ]);
  });

  it('reads the soap12: prefix, dates with offsets and fractions, and no prefix at all', () => {
    const body = soap(
      'http://www.w3.org/2003/05/soap-envelope',
      'soap12',
      '<TransactionListLast50_2Response xmlns="urn:x"><TransactionListLast50_2Result><Data>' +
        '<apiTransaction2><Id>1</Id><Id_Account>5</Id_Account><PaymentDate>2026-07-01T10:00:00Z</PaymentDate></apiTransaction2>' +
        '<apiTransaction2><Id>2</Id><Id_Account>5</Id_Account><PaymentDate>2026-01-01T10:00:00.1234567+01:00</PaymentDate></apiTransaction2>' +
        '<apiTransaction2><Id>3</Id><Id_Account>5</Id_Account><PaymentDate>2026-03-29T02:30:00</PaymentDate></apiTransaction2>' +
        '</Data></TransactionListLast50_2Result></TransactionListLast50_2Response>',
    );
    const rows = parseResponse('TransactionListLast50_2', ok(body), opts);
    expect(rows.map((r) => r.PaymentDate)).toEqual(['2026-07-01T12:00:00', '2026-01-01T10:00:00.123', '2026-03-29T02:30:00']);
  });

  it('reads nil and empty ChildCategories apart, and skips nil category items', () => {
    const body = soap(
      'http://www.w3.org/2003/05/soap-envelope',
      's',
      '<CategoryTreeResponse xmlns="urn:x" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><CategoryTreeResult><Data>' +
        '<FavoritCategories><apiCategory xsi:nil="true" /></FavoritCategories>' +
        '<AllCategories><apiCategory><Id>1</Id><Name>A</Name><ChildCategories /></apiCategory>' +
        '<apiCategory><Id>2</Id><Name>B</Name><ChildCategories xsi:nil="true"/></apiCategory>' +
        '<apiCategory><Id>3</Id><Name>C</Name></apiCategory></AllCategories>' +
        '</Data></CategoryTreeResult></CategoryTreeResponse>',
    );
    expect(parseResponse('CategoryTree', ok(body), opts)).toEqual({
      FavoritCategories: [],
      AllCategories: [
        { Id: 1, Name: 'A', ChildCategories: [] },
        { Id: 2, Name: 'B', ChildCategories: null },
        { Id: 3, Name: 'C', ChildCategories: null },
      ],
    });
  });

  it('reads a missing Data of a list as empty, and a SOAP 1.1 fault with any prefix', () => {
    const empty = soap(
      'http://www.w3.org/2003/05/soap-envelope',
      'e',
      '<CarFuelListResponse xmlns="urn:x"><CarFuelListResult/></CarFuelListResponse>',
    );
    expect(parseResponse('CarFuelList', ok(empty), opts)).toEqual([]);
    const fault = soap(
      'http://schemas.xmlsoap.org/soap/envelope/',
      'env',
      '<env:Fault><faultcode xmlns:q="urn:q">env:Server</faultcode><faultstring>Server was unable to process request.</faultstring></env:Fault>',
    );
    expect(() => parseResponse('CarFuelList', { status: 500, contentType: 'text/xml', body: fault }, opts)).toThrow(
      new ServiceFault('Server', 'Server was unable to process request.', 500),
    );
  });
});
