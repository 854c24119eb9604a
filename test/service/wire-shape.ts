/**
 * Reading a service's raw answer element by element, against shapes written out by hand from the
 * interface document (not from the catalog), so that a slip in the catalog or codec shows up here.
 */
import { expect } from 'vitest';
import { isNil, parseXml, type Binding, type XmlElement } from '../../src-shared/wire';
import type { RawResponse } from '../support/http';

export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

/** Field order of each record (service-interface.md section 2). */
const account = ['Id', 'Name', 'Type', 'Currency', 'IsActive', 'Locked', 'Description', 'Ord', 'UserAccountPermission', 'Amount'];
const transaction = ['Id_User', 'Id_UserCreated', 'Id_Account', 'PaymentDate', 'Type', 'Amount', 'Description', 'Id_Category'];
const template = ['Id', 'Id_User', 'Id_UserCreated', 'Id_Account', 'Type', 'Amount', 'Description', 'Id_Category'];
export const RECORD_FIELDS: Record<string, string[]> = {
  apiAccount: account,
  apiAccount2: [...account, 'IsHidden'],
  apiTransaction: transaction,
  apiTransaction2: ['Id', ...transaction],
  apiDefineTransaction: template,
  apiDefineTransaction2: [...template, 'Ord'],
  apiCarFuel: ['Id', 'Id_UserCreated', 'DateOfPurchase', 'Id_Car', 'Tachometer', 'Liter', 'Price', 'Description', 'Currency', 'Rate'],
};

/** HTTP GET/POST result roots (section 4.3), spellings included. */
export const HTTP_ROOTS: Record<string, string> = {
  AccountList2: 'apiResultAccountList2',
  AccountListWithAmount2: 'apiResultAccountList2',
  AccountListWithAmount: 'apiResultAccountList',
  TransactionListLast50_2: 'apiResultTransactionList2',
  TransactionListLast50: 'apiResultTransactionList',
  DefineTransactionList: 'apiResultDefineTransactionList',
  DefineTransactionList2: 'apiResultDefineTransactionList2',
  CarFuelList: 'apiResultCarFuelList',
  CategoryTree: 'apiResultCategoryTree',
  AddAccount: 'apiResultAddAccount',
  EditAccount: 'apiResultEditAccount',
  AddTranferToOtherAccount: 'apiResultAddTransferToOtherAccount',
  AddCategory: 'apiResultAddCategory',
  EditCategory: 'apiResultEditCategory',
  EditCarFuel: 'apiResultEditCarFuel',
};

/** An element as [name, content]: text for a leaf ('' when empty), children otherwise, null when nil. */
export type Node = [name: string, content: string | null | Node[]];

/** Every element below the result is in the API namespace (elementFormDefault qualified). */
export function toNode(el: XmlElement, ns: string): Node {
  expect(el.ns, `namespace of ${el.local}`).toBe(ns);
  if (isNil(el)) {
    expect(el.children).toHaveLength(0);
    return [el.local, null];
  }
  if (el.children.length === 0) return [el.local, el.text];
  return [el.local, el.children.map((c) => toNode(c, ns))];
}

/** A record with its fields in the interface's order; `values` holds the wire text of each field. */
export function record(name: string, values: Record<string, string>): Node {
  const fields = RECORD_FIELDS[name]!;
  expect(Object.keys(values).sort()).toEqual([...fields].sort());
  return [name, fields.map((f): Node => [f, values[f]!])];
}

export const list = (records: Node[]): Node => ['Data', records.length === 0 ? '' : records];

export function category(id: number, name: string, children: Node[] | null): Node {
  return [
    'apiCategory',
    [
      ['Id', String(id)],
      ['Name', name],
      ['ChildCategories', children === null ? null : children.length ? children : ''],
    ],
  ];
}

/**
 * Checks the frame of a successful answer (status, content type, envelope or root, namespaces) and
 * returns the result's content as nodes.
 */
export function resultNodes(binding: Binding, operation: string, res: RawResponse, ns: string): Node[] {
  expect(res.status, res.body).toBe(200);
  expect(res.body.startsWith(XML_DECLARATION)).toBe(true);
  const root = parseXml(res.body);
  if (binding === 'soap11' || binding === 'soap12') {
    const envNs = binding === 'soap11' ? SOAP11_NS : SOAP12_NS;
    expect(res.contentType).toBe(binding === 'soap11' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8');
    expect([root.local, root.ns]).toEqual(['Envelope', envNs]);
    expect(root.children.map((c) => [c.local, c.ns])).toEqual([['Body', envNs]]);
    const body = root.children[0]!;
    expect(body.children.map((c) => [c.local, c.ns])).toEqual([[`${operation}Response`, ns]]);
    const response = body.children[0]!;
    expect(response.children.map((c) => [c.local, c.ns])).toEqual([[`${operation}Result`, ns]]);
    return response.children[0]!.children.map((c) => toNode(c, ns));
  }
  expect(res.contentType).toBe('text/xml; charset=utf-8');
  expect([root.local, root.ns]).toEqual([HTTP_ROOTS[operation], ns]);
  expect(res.body).toContain(
    `<${HTTP_ROOTS[operation]} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns="`,
  );
  return root.children.map((c) => toNode(c, ns));
}

/** The fault an answer carries, after checking its frame in the binding's form. */
export function faultOf(binding: Binding, res: RawResponse): { code: string; message: string; status: number } {
  if (binding === 'httpGet' || binding === 'httpPost') {
    expect(res.contentType).toBe('text/plain; charset=utf-8');
    return { code: 'text', message: res.body, status: res.status };
  }
  const root = parseXml(res.body);
  const envNs = binding === 'soap11' ? SOAP11_NS : SOAP12_NS;
  expect(res.contentType).toBe(binding === 'soap11' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8');
  expect([root.local, root.ns]).toEqual(['Envelope', envNs]);
  const fault = root.children[0]!.children[0]!;
  expect([fault.local, fault.ns]).toEqual(['Fault', envNs]);
  if (binding === 'soap11') {
    // faultcode, faultstring and detail are unqualified in SOAP 1.1.
    expect(fault.children.map((c) => [c.local, c.ns])).toEqual([
      ['faultcode', ''],
      ['faultstring', ''],
      ['detail', ''],
    ]);
    return { code: fault.children[0]!.text, message: fault.children[1]!.text, status: res.status };
  }
  expect(fault.children.map((c) => [c.local, c.ns])).toEqual([
    ['Code', envNs],
    ['Reason', envNs],
    ['Detail', envNs],
  ]);
  const text = fault.children[1]!.children[0]!;
  expect(text.local).toBe('Text');
  expect(text.attrs.find((a) => a.local === 'lang')?.value).toBe('en');
  return { code: fault.children[0]!.children[0]!.text, message: text.text, status: res.status };
}

/**
 * The subcode a fault is marked with, read by hand from the raw answer: SOAP 1.2's Code/Subcode/Value (a name
 * whose prefix must be bound to the API namespace `ns`), the element in `ns` in a SOAP 1.1 fault's detail, the
 * GET and POST bindings' Fault-Subcode header. Null when the fault carries none; the fault's frame is checked
 * by faultOf.
 */
export function subcodeOf(binding: Binding, res: RawResponse, ns: string): string | null {
  if (binding === 'httpGet' || binding === 'httpPost') return res.headers.get('Fault-Subcode');
  const fault = parseXml(res.body).children[0]!.children[0]!;
  if (binding === 'soap11') {
    const marks = fault.children[2]!.children;
    expect(marks.length).toBeLessThanOrEqual(1);
    if (marks.length === 0) return null;
    expect([marks[0]!.ns, marks[0]!.children.length, marks[0]!.text]).toEqual([ns, 0, '']);
    return marks[0]!.local;
  }
  const code = fault.children[0]!;
  if (code.children.length === 1) return null;
  expect(code.children.map((c) => [c.local, c.ns])).toEqual([
    ['Value', SOAP12_NS],
    ['Subcode', SOAP12_NS],
  ]);
  const value = code.children[1]!.children[0]!;
  expect([value.local, value.ns]).toEqual(['Value', SOAP12_NS]);
  const [prefix, local] = value.text.split(':');
  expect(value.declares?.[prefix!], `the prefix of ${value.text}`).toBe(ns);
  return local!;
}

/** What a Client fault's code reads as in each binding. */
export const CLIENT_CODE: Record<Binding, string> = { soap11: 'soap:Client', soap12: 'soap:Sender', httpGet: 'text', httpPost: 'text' };
export const SERVER_CODE: Record<Binding, string> = { soap11: 'soap:Server', soap12: 'soap:Receiver', httpGet: 'text', httpPost: 'text' };
