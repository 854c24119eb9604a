/**
 * The WSDL 1.1 document of the service, generated from the catalog as ASMX writes one: a schema with
 * `elementFormDefault="qualified"` (request and response wrapper elements, result and record types, the
 * root elements of the HTTP GET/POST answers), messages, port types and bindings for SOAP 1.1, SOAP 1.2,
 * HTTP GET and HTTP POST, and a service whose four ports are addressed at the host the request named.
 *
 * Every request parameter is required (minOccurs 1) and every result field is always written, so the
 * schema says minOccurs 1 for them; list items are nillable, as the interface describes them.
 */
import {
  CATEGORY_FIELDS,
  CATEGORY_RECORD,
  CATEGORY_TREE_LISTS,
  FLAT_RECORDS,
  OPERATIONS,
  OPERATION_NAMES,
  TRANSFER_PAIR_ELEMENTS,
  soapAction,
  soapResponseElement,
  soapResultElement,
  wireParams,
  type FieldList,
  type OperationName,
  type OperationSpec,
  type ResultShape,
} from '../../src-shared/catalog';
import { SERVICE_PATH, escapeAttr, escapeText } from '../../src-shared/wire';

export const SERVICE_NAME = 'APIservice';
const CATEGORY_TREE_TYPE = 'apiCategoryTree';

const arrayType = (record: string): string => `ArrayOf${record[0]!.toUpperCase()}${record.slice(1)}`;

function elements(fields: FieldList, indent: string): string {
  return fields.map((f) => `${indent}<s:element minOccurs="1" maxOccurs="1" name="${f.name}" type="s:${f.type}" />\n`).join('');
}

function sequenceType(name: string, body: string): string {
  return `      <s:complexType name="${name}">\n        <s:sequence>\n${body}        </s:sequence>\n      </s:complexType>\n`;
}

const member = (name: string, type: string, extra = '') =>
  `          <s:element minOccurs="1" maxOccurs="1" name="${name}"${extra} type="tns:${type}" />\n`;
const items = (record: string) =>
  `          <s:element minOccurs="0" maxOccurs="unbounded" name="${record}" nillable="true" type="tns:${record}" />\n`;

/** The complex type of a `...Result` element (= the root of the GET/POST answer). */
function resultType(root: string, shape: ResultShape): string {
  switch (shape.kind) {
    case 'list':
      return sequenceType(root, member('Data', arrayType(shape.record)));
    case 'single':
      return sequenceType(root, member('Data', shape.record));
    case 'categoryTree':
      return sequenceType(root, member('Data', CATEGORY_TREE_TYPE));
    case 'transferPair':
      return sequenceType(root, TRANSFER_PAIR_ELEMENTS.map((e) => member(e, 'apiTransaction2')).join(''));
  }
}

function schema(namespace: string): string {
  const ns = escapeAttr(namespace);
  let out = `    <s:schema elementFormDefault="qualified" targetNamespace="${ns}">\n`;
  for (const name of OPERATION_NAMES) {
    const spec: OperationSpec = OPERATIONS[name];
    out +=
      `      <s:element name="${name}">\n        <s:complexType>\n          <s:sequence>\n` +
      elements(wireParams(name), '            ') +
      `          </s:sequence>\n        </s:complexType>\n      </s:element>\n` +
      `      <s:element name="${soapResponseElement(name)}">\n        <s:complexType>\n          <s:sequence>\n` +
      `            <s:element minOccurs="1" maxOccurs="1" name="${soapResultElement(name)}" type="tns:${spec.httpResultRoot}" />\n` +
      `          </s:sequence>\n        </s:complexType>\n      </s:element>\n`;
  }
  // Result types, once each (AccountList2 and AccountListWithAmount2 share theirs).
  const roots = new Map<string, ResultShape>();
  for (const name of OPERATION_NAMES) roots.set(OPERATIONS[name].httpResultRoot, OPERATIONS[name].result);
  for (const [root, shape] of roots) out += resultType(root, shape);
  for (const [record, spec] of Object.entries(FLAT_RECORDS)) {
    out += sequenceType(arrayType(record), items(record));
    out += sequenceType(record, elements(spec.fields, '          '));
  }
  out += sequenceType(
    CATEGORY_RECORD,
    elements(CATEGORY_FIELDS, '          ') + member('ChildCategories', arrayType(CATEGORY_RECORD), ' nillable="true"'),
  );
  out += sequenceType(arrayType(CATEGORY_RECORD), items(CATEGORY_RECORD));
  out += sequenceType(CATEGORY_TREE_TYPE, CATEGORY_TREE_LISTS.map((l) => member(l, arrayType(CATEGORY_RECORD))).join(''));
  // The root elements of the HTTP GET and POST answers.
  for (const root of roots.keys()) out += `      <s:element name="${root}" nillable="true" type="tns:${root}" />\n`;
  return `${out}    </s:schema>\n`;
}

type Port = 'Soap' | 'Soap12' | 'HttpGet' | 'HttpPost';
const PORTS: readonly Port[] = ['Soap', 'Soap12', 'HttpGet', 'HttpPost'];

function messages(name: OperationName): string {
  const part = (n: string, element: string) => `    <wsdl:part name="${n}" element="tns:${element}" />\n`;
  const formParts = wireParams(name)
    .map((p) => `    <wsdl:part name="${p.name}" type="s:string" />\n`)
    .join('');
  const msg = (suffix: string, body: string) => `  <wsdl:message name="${name}${suffix}">\n${body}  </wsdl:message>\n`;
  const out = part('Body', OPERATIONS[name].httpResultRoot);
  return (
    msg('SoapIn', part('parameters', name)) +
    msg('SoapOut', part('parameters', soapResponseElement(name))) +
    msg('HttpGetIn', formParts) +
    msg('HttpGetOut', out) +
    msg('HttpPostIn', formParts) +
    msg('HttpPostOut', out)
  );
}

function portType(port: 'Soap' | 'HttpGet' | 'HttpPost'): string {
  let out = `  <wsdl:portType name="${SERVICE_NAME}${port}">\n`;
  for (const name of OPERATION_NAMES) {
    const { summary } = OPERATIONS[name];
    out +=
      `    <wsdl:operation name="${name}">\n` +
      `      <wsdl:documentation xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">${escapeText(`${summary.cs} (${summary.en})`)}</wsdl:documentation>\n` +
      `      <wsdl:input message="tns:${name}${port}In" />\n      <wsdl:output message="tns:${name}${port}Out" />\n` +
      `    </wsdl:operation>\n`;
  }
  return `${out}  </wsdl:portType>\n`;
}

function binding(port: Port, namespace: string): string {
  const soapNs = port === 'Soap12' ? 'soap12' : 'soap';
  const head =
    port === 'Soap' || port === 'Soap12'
      ? `    <${soapNs}:binding transport="http://schemas.xmlsoap.org/soap/http" />\n`
      : `    <http:binding verb="${port === 'HttpGet' ? 'GET' : 'POST'}" />\n`;
  const type = port === 'Soap12' ? 'Soap' : port;
  let out = `  <wsdl:binding name="${SERVICE_NAME}${port}" type="tns:${SERVICE_NAME}${type}">\n${head}`;
  for (const name of OPERATION_NAMES) {
    out += `    <wsdl:operation name="${name}">\n`;
    if (port === 'Soap' || port === 'Soap12') {
      out +=
        `      <${soapNs}:operation soapAction="${escapeAttr(soapAction(namespace, name))}" style="document" />\n` +
        `      <wsdl:input>\n        <${soapNs}:body use="literal" />\n      </wsdl:input>\n` +
        `      <wsdl:output>\n        <${soapNs}:body use="literal" />\n      </wsdl:output>\n`;
    } else {
      const input = port === 'HttpGet' ? '<http:urlEncoded />' : '<mime:content type="application/x-www-form-urlencoded" />';
      out +=
        `      <http:operation location="/${name}" />\n` +
        `      <wsdl:input>\n        ${input}\n      </wsdl:input>\n` +
        `      <wsdl:output>\n        <mime:mimeXml part="Body" />\n      </wsdl:output>\n`;
    }
    out += `    </wsdl:operation>\n`;
  }
  return `${out}  </wsdl:binding>\n`;
}

const ADDRESS = '\u0000ADDRESS\u0000';

function service(): string {
  const address: Record<Port, string> = { Soap: 'soap', Soap12: 'soap12', HttpGet: 'http', HttpPost: 'http' };
  let out = `  <wsdl:service name="${SERVICE_NAME}">\n`;
  for (const port of PORTS) {
    out +=
      `    <wsdl:port name="${SERVICE_NAME}${port}" binding="tns:${SERVICE_NAME}${port}">\n` +
      `      <${address[port]}:address location="${ADDRESS}" />\n    </wsdl:port>\n`;
  }
  return `${out}  </wsdl:service>\n`;
}

/** The document with a placeholder where the address goes; built once per namespace. */
function template(namespace: string): string {
  const ns = escapeAttr(namespace);
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    '<wsdl:definitions xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tm="http://microsoft.com/wsdl/mime/textMatching/" ' +
    'xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/" ' +
    `xmlns:tns="${ns}" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" ` +
    `xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" targetNamespace="${ns}" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">\n` +
    '  <wsdl:documentation xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">Osobní účetnictví (personal bookkeeping)</wsdl:documentation>\n' +
    `  <wsdl:types>\n${schema(namespace)}  </wsdl:types>\n` +
    OPERATION_NAMES.map(messages).join('') +
    portType('Soap') +
    portType('HttpGet') +
    portType('HttpPost') +
    PORTS.map((p) => binding(p, namespace)).join('') +
    service() +
    '</wsdl:definitions>\n'
  );
}

/** Builds WSDL documents for one namespace; the host-independent part is generated once. */
export class WsdlDocument {
  private readonly parts: string[];

  constructor(namespace: string) {
    this.parts = template(namespace).split(ADDRESS);
  }

  /** The document with the service's address at `origin` (e.g. `http://127.0.0.1:8080`). */
  render(origin: string): string {
    return this.parts.join(escapeAttr(`${origin}${SERVICE_PATH}`));
  }
}
