/**
 * Responses and faults in the four bindings, written as an ASMX service writes them (the service) and
 * read back from any service that writes the same interface (the client): any prefixes or none, SOAP 1.1
 * or 1.2 whatever was asked, nil, missing optional fields, unknown extra elements.
 */
import { OPERATIONS, soapResponseElement, soapResultElement, type OperationName, type ResultOf } from '../catalog';
import { CONTENT_TYPE, SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, envelopeNs, isSoap, mediaType, type Binding } from './bindings';
import { FAULT_SUBCODE_HEADER, isFaultSubcode, ServiceFault, WireError, type FaultSubcode } from './errors';
import { readResultContent, writeResultContent } from './result-content';
import type { ReadOptions } from './values';
import { escapeAttr, escapeText } from './xml-text';
import { childNamed, parseXml, resolveQName, type XmlElement, type XmlLimits } from './xml-tree';

export interface WireResponse {
  status: number;
  contentType: string;
  body: string;
  /** A plain-text fault's subcode: what the GET and POST bindings send in the Fault-Subcode header. */
  faultSubcode?: string | null;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
const SCHEMA_NS_DECLS = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

function soapEnvelope(binding: 'soap11' | 'soap12', bodyContent: string): string {
  return (
    `${XML_DECLARATION}<soap:Envelope xmlns:soap="${envelopeNs(binding)}" ${SCHEMA_NS_DECLS}>` +
    `<soap:Body>${bodyContent}</soap:Body></soap:Envelope>`
  );
}

/** A successful answer: HTTP 200 with the binding's content type. */
export function buildResponse<N extends OperationName>(
  binding: Binding,
  operation: N,
  result: ResultOf<N>,
  namespace: string,
): WireResponse {
  const spec = OPERATIONS[operation];
  const content = writeResultContent(spec.result, result);
  const ns = escapeAttr(namespace);
  if (isSoap(binding)) {
    const response = soapResponseElement(operation);
    const resultEl = soapResultElement(operation);
    return {
      status: 200,
      contentType: CONTENT_TYPE[binding],
      body: soapEnvelope(binding, `<${response} xmlns="${ns}"><${resultEl}>${content}</${resultEl}></${response}>`),
    };
  }
  const root = spec.httpResultRoot;
  return {
    status: 200,
    contentType: CONTENT_TYPE.xml,
    body: `${XML_DECLARATION}\n<${root} ${SCHEMA_NS_DECLS} xmlns="${ns}">${content}</${root}>`,
  };
}

export interface FaultSpec {
  /** 'MustUnderstand': a header the service does not understand was marked mustUnderstand. */
  code: 'Client' | 'Server' | 'MustUnderstand';
  message: string;
  /** HTTP status; 500 unless the error says otherwise (400 for XML that does not parse). */
  status?: number;
  /** A finer code, in the API's namespace (given to buildFault): added beside the code and words, which stay as they are. */
  subcode?: FaultSubcode;
}

/** SOAP 1.2's names of the fault codes SOAP 1.1 calls Client and Server. */
const SOAP12_FAULT_CODE: Record<FaultSpec['code'], string> = { Client: 'Sender', Server: 'Receiver', MustUnderstand: 'MustUnderstand' };

/**
 * A fault in the binding's own form: a SOAP 1.1 or 1.2 Fault, or for GET/POST the plain-text answer ASMX
 * gives. A subcode is added where the binding has room for one, the code, words and status unchanged: in
 * SOAP 1.2 as the Subcode its fault model has (a name in `namespace`, the API's); on the GET and POST
 * bindings, whose errors are plain text, in the Fault-Subcode header. SOAP 1.1 has no subcode, and the
 * service decisions fix its fault's detail as empty (as ASMX sends it): there a credential fault is told by
 * its words alone, which readFault still reads from a detail element another service may send.
 */
export function buildFault(binding: Binding, fault: FaultSpec, namespace?: string): WireResponse {
  const status = fault.status ?? 500;
  const message = escapeText(fault.message);
  if (fault.subcode && isSoap(binding) && !namespace) throw new Error('A SOAP fault subcode is a name in the API namespace: give it.');
  const ns = escapeAttr(namespace ?? '');
  switch (binding) {
    case 'soap11': {
      return {
        status,
        contentType: CONTENT_TYPE.soap11,
        body: soapEnvelope(
          binding,
          `<soap:Fault><faultcode>soap:${fault.code}</faultcode><faultstring>${message}</faultstring><detail /></soap:Fault>`,
        ),
      };
    }
    case 'soap12': {
      const subcode = fault.subcode ? `<soap:Subcode><soap:Value xmlns:api="${ns}">api:${fault.subcode}</soap:Value></soap:Subcode>` : '';
      return {
        status,
        contentType: CONTENT_TYPE.soap12,
        body: soapEnvelope(
          binding,
          `<soap:Fault><soap:Code><soap:Value>soap:${SOAP12_FAULT_CODE[fault.code]}</soap:Value>${subcode}</soap:Code>` +
            `<soap:Reason><soap:Text xml:lang="en">${message}</soap:Text></soap:Reason><soap:Detail /></soap:Fault>`,
        ),
      };
    }
    default:
      return { status, contentType: CONTENT_TYPE.text, body: fault.message, ...(fault.subcode ? { faultSubcode: fault.subcode } : {}) };
  }
}

/** The HTTP headers of an answer beyond its status, content type and body: a plain-text fault's subcode. */
export function faultHeaders(wire: WireResponse): Record<string, string> {
  return wire.faultSubcode ? { [FAULT_SUBCODE_HEADER]: wire.faultSubcode } : {};
}

/**
 * A WireError raised while reading a request, as the fault a service answers it with. An unknown
 * operation is a 404 only where the operation is named in the path (GET/POST); a SOAP body naming one
 * is answered like every other SOAP fault that is not a parse failure, with 500.
 */
export function faultForWireError(binding: Binding, error: WireError): WireResponse {
  const status = isSoap(binding) && error.code === 'unknown-operation' ? 500 : error.httpStatus;
  return buildFault(binding, { code: error.code === 'must-understand' ? 'MustUnderstand' : 'Client', message: error.message, status });
}

// ---- reading responses (the client side) ------------------------------------------------------

export interface ResponseOptions extends ReadOptions {
  limits?: XmlLimits;
  /**
   * The API's namespace: a fault's subcode counts only in it. Without it, a subcode in any namespace counts
   * (a reader that does not know the namespace).
   */
  namespace?: string;
  /**
   * The binding the request was sent in. Only the HTTP GET and POST bindings answer errors as plain
   * text; on a SOAP binding a plain-text error is not the service's (a proxy's, a load balancer's).
   * Without it, plain text is read as the GET/POST bindings write it.
   */
  binding?: Binding;
}

/** Statuses at which the HTTP GET and POST bindings answer a refusal in plain text. */
const PLAIN_TEXT_FAULT_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 404, 500]);

function isEnvelope(el: XmlElement): boolean {
  return el.local === 'Envelope' && (el.ns === SOAP11_ENVELOPE_NS || el.ns === SOAP12_ENVELOPE_NS);
}

/**
 * A SOAP fault's subcode, as the service marks one: SOAP 1.2's Code/Subcode/Value (a name in a namespace,
 * resolved where it stands), or an element of the fault's detail (SOAP 1.1's detail, SOAP 1.2's Detail); one
 * this reader does not know, or in another namespace, is none.
 */
function faultSubcode(fault: XmlElement, above: readonly XmlElement[], namespace: string | undefined): FaultSubcode | null {
  const inApi = (ns: string) => (namespace === undefined ? ns !== '' : ns === namespace);
  const code = childNamed(fault, 'Code');
  const subcode = code && childNamed(code, 'Subcode');
  const value = subcode && childNamed(subcode, 'Value');
  if (code && subcode && value) {
    const name = resolveQName(value.text, [value, subcode, code, fault, ...above]);
    if (name && inApi(name.ns) && isFaultSubcode(name.local)) return name.local;
  }
  const detail = childNamed(fault, 'detail') ?? childNamed(fault, 'Detail');
  const marked = detail?.children.find((el) => inApi(el.ns) && isFaultSubcode(el.local));
  return marked ? (marked.local as FaultSubcode) : null;
}

/** Reads a SOAP Fault element of either version into a ServiceFault; `above`: its ancestors, innermost first. */
function readFault(fault: XmlElement, above: readonly XmlElement[], status: number, namespace: string | undefined): ServiceFault {
  // SOAP 1.1: faultcode + faultstring. SOAP 1.2: Code/Value + Reason/Text.
  const code11 = childNamed(fault, 'faultcode')?.text.trim();
  const code12 = childNamed(childNamed(fault, 'Code') ?? fault, 'Value')?.text.trim();
  const code = (code11 ?? code12 ?? '').replace(/^.*:/, '');
  const message = childNamed(fault, 'faultstring')?.text ?? childNamed(childNamed(fault, 'Reason') ?? fault, 'Text')?.text ?? '';
  const client = code === 'Client' || code === 'Sender' || code.startsWith('Client.');
  const text = message.trim() || 'The service answered a fault without a message.';
  return new ServiceFault(client ? 'Client' : 'Server', text, status, faultSubcode(fault, above, namespace));
}

/** A plain-text fault's subcode, from its header: one this reader knows, or none. */
function plainSubcode(res: WireResponse): FaultSubcode | null {
  const given = res.faultSubcode?.trim() ?? '';
  return isFaultSubcode(given) ? given : null;
}

/**
 * Reads a response into the operation's typed result. Throws ServiceFault for a fault the service
 * answered, WireError for anything that is not a well-formed answer of this operation.
 */
export function parseResponse<N extends OperationName>(operation: N, res: WireResponse, options: ResponseOptions): ResultOf<N> {
  const spec = OPERATIONS[operation];
  const type = mediaType(res.contentType);
  if (res.status !== 200 && (type === 'text/plain' || type === 'text/html' || res.body.trim() === '')) {
    // The GET/POST bindings answer errors in plain text (500, and 404 for an unknown operation, as
    // ASMX does); anything else without XML is the answer of a server in between, not a fault.
    const text = res.body.trim().slice(0, 500);
    const plainTextFaults = options.binding === undefined || !isSoap(options.binding);
    if (type === 'text/plain' && text !== '' && plainTextFaults && PLAIN_TEXT_FAULT_STATUSES.has(res.status)) {
      throw new ServiceFault(res.status < 500 ? 'Client' : 'Server', text, res.status, plainSubcode(res));
    }
    throw new WireError('unexpected-response', `The service answered HTTP ${res.status} without a fault.`);
  }
  let root: XmlElement;
  try {
    root = parseXml(res.body, options.limits);
  } catch (e) {
    if (res.status !== 200) {
      throw new WireError('unexpected-response', `The service answered HTTP ${res.status} with a body that is not XML.`);
    }
    throw e;
  }

  let resultEl: XmlElement | undefined;
  if (isEnvelope(root)) {
    const body = childNamed(root, 'Body');
    const first = body?.children[0];
    if (!first) throw new WireError('unexpected-response', 'The SOAP response has an empty Body.');
    if (first.local === 'Fault') throw readFault(first, [body, root], res.status, options.namespace);
    if (first.local !== soapResponseElement(operation)) {
      throw new WireError('unexpected-response', `Expected ${soapResponseElement(operation)}, got ${first.local}.`);
    }
    resultEl = childNamed(first, soapResultElement(operation));
    if (!resultEl) throw new WireError('missing-element', `The response lacks ${soapResultElement(operation)}.`);
  } else {
    if (root.local !== spec.httpResultRoot) {
      throw new WireError('unexpected-response', `Expected ${spec.httpResultRoot}, got ${root.local}.`);
    }
    resultEl = root;
  }
  if (res.status !== 200) throw new WireError('unexpected-response', `The service answered HTTP ${res.status}.`);
  return readResultContent(spec.result, resultEl, options) as ResultOf<N>;
}
