/**
 * Requests in the four bindings: building them (the client) and reading them back into typed calls
 * (the service). Every parameter is required; SOAP children are matched by local name in any order and
 * unknown children are ignored; GET/POST parameters are text, typed by the catalog.
 */
import {
  CLIENT_KEY_PARAM,
  LOGIN_PARAM,
  OPERATIONS,
  OPERATION_NAMES,
  isOperationName,
  soapAction,
  wireParams,
  type Credentials,
  type OperationName,
  type ParamsOf,
} from '../catalog';
import { CONTENT_TYPE, SERVICE_PATH, contentTypeParam, envelopeNs, mediaType, unquote, type Binding } from './bindings';
import { WireError, quote } from './errors';
import { readValue, writeValue, type ReadOptions } from './values';
import { escapeText, hasForbiddenXmlChar } from './xml-text';
import { isNil, parseXml, type XmlElement, type XmlLimits } from './xml-tree';

export interface CallOf<N extends OperationName> {
  operation: N;
  credentials: Credentials;
  params: ParamsOf<N>;
}

/** A decoded call of any operation; narrowing on `operation` types `params`. */
export type AnyCall = { [N in OperationName]: CallOf<N> }[OperationName];

export interface WireRequest {
  method: 'GET' | 'POST';
  /** Path below the base URL, with the query string for GET. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
const SCHEMA_NS_DECLS = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

function paramTexts<N extends OperationName>(call: CallOf<N>): [name: string, text: string][] {
  const spec = OPERATIONS[call.operation];
  const values: Record<string, unknown> = {
    ...(call.params as Record<string, unknown>),
    [CLIENT_KEY_PARAM]: call.credentials.clientKey,
    [LOGIN_PARAM]: call.credentials.login,
    [spec.passwordParam]: call.credentials.password,
  };
  return wireParams(call.operation).map((p) => [p.name, writeValue(p.type, values[p.name], p.name)]);
}

export function buildRequest<N extends OperationName>(binding: Binding, call: CallOf<N>, namespace: string): WireRequest {
  const texts = paramTexts(call);
  switch (binding) {
    case 'soap11':
    case 'soap12': {
      const prefix = binding === 'soap11' ? 'soap' : 'soap12';
      const params = texts.map(([n, t]) => (t === '' ? `<${n} />` : `<${n}>${escapeText(t)}</${n}>`)).join('');
      const body =
        `${XML_DECLARATION}<${prefix}:Envelope ${SCHEMA_NS_DECLS} xmlns:${prefix}="${envelopeNs(binding)}">` +
        `<${prefix}:Body><${call.operation} xmlns="${escapeText(namespace)}">${params}</${call.operation}></${prefix}:Body>` +
        `</${prefix}:Envelope>`;
      const action = soapAction(namespace, call.operation);
      const headers: Record<string, string> =
        binding === 'soap11'
          ? { 'Content-Type': CONTENT_TYPE.soap11, SOAPAction: `"${action}"` }
          : { 'Content-Type': `${CONTENT_TYPE.soap12}; action="${action}"` };
      return { method: 'POST', path: SERVICE_PATH, headers, body };
    }
    case 'httpGet':
      return {
        method: 'GET',
        path: `${SERVICE_PATH}/${call.operation}?${new URLSearchParams(texts).toString()}`,
        headers: {},
        body: '',
      };
    case 'httpPost':
      return {
        method: 'POST',
        path: `${SERVICE_PATH}/${call.operation}`,
        headers: { 'Content-Type': CONTENT_TYPE.form },
        body: new URLSearchParams(texts).toString(),
      };
  }
}

// ---- reading requests (the service side) -------------------------------------------------------

export interface IncomingRequest {
  method: string;
  /** The operation named in the path of a GET/POST-binding request (`.../APIservice.asmx/<Operation>`). */
  pathOperation?: string;
  /** The query string of a GET request, without `?`. */
  query?: string;
  contentType?: string;
  soapAction?: string;
  body?: string;
}

export interface RequestOptions extends ReadOptions {
  namespace: string;
  limits?: XmlLimits;
}

/**
 * Which binding an HTTP request uses: `/APIservice.asmx/<Operation>` is GET or POST (form); a POST to
 * the bare address is SOAP 1.1 or 1.2 by its media type.
 */
export function detectBinding(req: Pick<IncomingRequest, 'method' | 'pathOperation' | 'contentType'>): Binding {
  if (req.pathOperation !== undefined) {
    if (req.method === 'GET') return 'httpGet';
    if (mediaType(req.contentType) !== 'application/x-www-form-urlencoded') {
      throw new WireError('unsupported-media-type', 'The HTTP POST binding takes application/x-www-form-urlencoded.');
    }
    return 'httpPost';
  }
  switch (mediaType(req.contentType)) {
    case 'text/xml':
      return 'soap11';
    case 'application/soap+xml':
      return 'soap12';
    default:
      throw new WireError(
        'unsupported-media-type',
        'A SOAP request needs Content-Type text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2).',
      );
  }
}

const REQUEST_LIMITS: XmlLimits = { maxChars: 1024 * 1024, maxDepth: 16 };

export function parseRequest(binding: Binding, req: IncomingRequest, options: RequestOptions): AnyCall {
  return binding === 'soap11' || binding === 'soap12' ? parseSoapRequest(binding, req, options) : parseFormRequest(binding, req, options);
}

function parseSoapRequest(binding: 'soap11' | 'soap12', req: IncomingRequest, options: RequestOptions): AnyCall {
  const root = parseXml(req.body ?? '', options.limits ?? REQUEST_LIMITS);
  if (root.local !== 'Envelope' || root.ns !== envelopeNs(binding)) {
    throw new WireError(
      'not-an-envelope',
      binding === 'soap11'
        ? 'The request is not a SOAP 1.1 envelope (namespace http://schemas.xmlsoap.org/soap/envelope/).'
        : 'The request is not a SOAP 1.2 envelope (namespace http://www.w3.org/2003/05/soap-envelope).',
    );
  }
  const bodies = root.children.filter((c) => c.local === 'Body' && c.ns === root.ns);
  if (bodies.length > 1) throw new WireError('not-an-envelope', 'The SOAP envelope holds more than one Body.');
  const header = root.children.find((c) => c.local === 'Header' && c.ns === root.ns);
  if (header) checkHeaders(header, root.ns);
  const opEl = bodies[0]?.children[0];
  if (!opEl) throw new WireError('not-an-envelope', 'The SOAP Body holds no operation element.');

  const action = binding === 'soap11' ? unquote(req.soapAction?.trim() ?? '') : (contentTypeParam(req.contentType, 'action') ?? '');
  let name: OperationName | undefined;
  if (action !== '') {
    name = actionsOf(options.namespace).get(action);
    if (!name) {
      throw new WireError('unknown-soap-action', `Server did not recognize the value of HTTP Header SOAPAction: ${action}.`);
    }
    if (opEl.local !== name) {
      throw new WireError('not-an-envelope', `The SOAP Body does not hold the element ${name} that the action names.`);
    }
  } else {
    if (!isOperationName(opEl.local)) {
      throw new WireError('unknown-operation', `Unknown operation: ${quote(opEl.local)}.`);
    }
    name = opEl.local;
  }
  // As ASMX: the operation is an element of the service's namespace, whatever its local name.
  if (opEl.ns !== options.namespace) {
    throw new WireError(
      'not-an-envelope',
      `The operation element ${quote(opEl.local)} is in the namespace ${quote(opEl.ns || '(none)')}, not in the service's namespace ${quote(options.namespace)}.`,
    );
  }
  return readCall(name, (param) => soapParamText(opEl, param), options);
}

/** The SOAP actions of a namespace, to the operation each names (one namespace per service: made once). */
const actionMaps = new Map<string, Map<string, OperationName>>();
function actionsOf(namespace: string): Map<string, OperationName> {
  let actions = actionMaps.get(namespace);
  if (actions === undefined) {
    actions = new Map(OPERATION_NAMES.map((n) => [soapAction(namespace, n), n]));
    // A process may read for many namespaces (tests): the maps are few, and never many at once.
    if (actionMaps.size >= 16) actionMaps.clear();
    actionMaps.set(namespace, actions);
  }
  return actions;
}

/** No header means anything to this service: one marked mustUnderstand (1, or true in SOAP 1.2) is refused, as SOAP requires. */
function checkHeaders(header: XmlElement, envelopeNs: string): void {
  for (const entry of header.children) {
    const mark = entry.attrs.find((a) => a.local === 'mustUnderstand' && a.ns === envelopeNs)?.value.trim();
    if (mark === '1' || mark === 'true') {
      throw new WireError('must-understand', `SOAP header ${quote(entry.local)} was not understood.`);
    }
  }
}

function soapParamText(opEl: XmlElement, param: string): string {
  const matches = opEl.children.filter((c) => c.local === param);
  if (matches.length === 0) throw missingParam(param);
  if (matches.length > 1) throw new WireError('duplicate-parameter', `Parameter ${param} is given more than once.`, param);
  const el = matches[0]!;
  if (isNil(el)) throw new WireError('missing-parameter', `Parameter ${param} is nil; it is required.`, param);
  if (el.children.length > 0) throw new WireError('invalid-value', `Parameter ${param} must be a simple value.`, param);
  return el.text;
}

function parseFormRequest(binding: 'httpGet' | 'httpPost', req: IncomingRequest, options: RequestOptions): AnyCall {
  const name = req.pathOperation ?? '';
  if (!isOperationName(name)) throw new WireError('unknown-operation', `Unknown operation: ${quote(name)}.`);
  const source = binding === 'httpGet' ? (req.query ?? '') : (req.body ?? '');
  if (source.length > (options.limits ?? REQUEST_LIMITS).maxChars) {
    throw new WireError('too-large', 'The request is too large.');
  }
  const form = new URLSearchParams(source);
  return readCall(
    name,
    (param) => {
      const values = form.getAll(param);
      if (values.length === 0) throw missingParam(param);
      if (values.length > 1) throw new WireError('duplicate-parameter', `Parameter ${param} is given more than once.`, param);
      const text = values[0]!;
      if (hasForbiddenXmlChar(text)) {
        throw new WireError('invalid-value', `Parameter ${param} holds a control character.`, param);
      }
      return text;
    },
    options,
  );
}

function missingParam(param: string): WireError {
  return new WireError('missing-parameter', `Missing parameter: ${param}.`, param);
}

function readCall(name: OperationName, textOf: (param: string) => string, options: ReadOptions): AnyCall {
  const spec = OPERATIONS[name];
  const values: Record<string, unknown> = {};
  for (const p of wireParams(name)) values[p.name] = readValue(p.type, textOf(p.name), p.name, options);
  const credentials: Credentials = {
    clientKey: values[CLIENT_KEY_PARAM] as string,
    login: values[LOGIN_PARAM] as string,
    password: values[spec.passwordParam] as string,
  };
  const params: Record<string, unknown> = {};
  for (const p of spec.params) params[p.name] = values[p.name];
  return { operation: name, credentials, params } as AnyCall;
}
