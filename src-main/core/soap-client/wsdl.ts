/**
 * `connect`: reads the service's WSDL (`?WSDL`), takes its `targetNamespace`, and reports which of the
 * 15 operations and which bindings it describes. A WSDL is read with the same safe XML reader as every
 * answer (no DOCTYPE, no entity expansion, size and depth limits).
 */
import type { ConnectionWarning } from '../../../src-shared/app-api';
import { OPERATION_NAMES, type OperationName, isNamespaceUri } from '../../../src-shared/catalog';
import { parseXml, WireError, type Binding, type XmlElement } from '../../../src-shared/wire';
import { MalformedResponseError, UNAVAILABLE_STATUSES, UnavailableError } from './errors';
import { parseRetryAfter } from './retry';
import type { TransportFactory } from './transport';
import { nodeTransport } from './transports/node';
import { addressWarnings, normalizeBaseUrl, wsdlUrl } from './urls';

const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
const WSDL_SOAP11_NS = 'http://schemas.xmlsoap.org/wsdl/soap/';
const WSDL_SOAP12_NS = 'http://schemas.xmlsoap.org/wsdl/soap12/';
const WSDL_HTTP_NS = 'http://schemas.xmlsoap.org/wsdl/http/';

export interface ServiceDescription {
  baseUrl: string;
  namespace: string;
  /** Operations of the catalog the WSDL lists, in catalog order. */
  operations: OperationName[];
  /** Operations of the catalog it does not list. */
  missing: OperationName[];
  /** Bindings it describes. */
  bindings: Binding[];
  warnings: ConnectionWarning[];
}

export interface ConnectOptions {
  timeoutMs?: number;
  maxResponseBytes?: number;
  transport?: TransportFactory;
  trustedCertificate?: string | null;
  signal?: AbortSignal;
}

function walk(el: XmlElement, visit: (e: XmlElement) => void): void {
  visit(el);
  for (const c of el.children) walk(c, visit);
}

/** Reads a WSDL 1.1 document into what the client needs from it. */
export function readWsdl(text: string, baseUrl: string): ServiceDescription {
  const root = parseXml(text, { maxChars: 8 * 1024 * 1024, maxDepth: 64 });
  if (root.local !== 'definitions' || root.ns !== WSDL_NS) {
    throw new WireError('unexpected-response', 'The address did not answer with a WSDL 1.1 document.');
  }
  const namespace = root.attrs.find((a) => a.local === 'targetNamespace' && a.ns === '')?.value.trim();
  if (!namespace) throw new WireError('missing-element', 'The WSDL document has no targetNamespace.');
  if (!isNamespaceUri(namespace)) {
    throw new WireError(
      'unexpected-response',
      `The WSDL's targetNamespace ${JSON.stringify(namespace.slice(0, 100))} is not an absolute URI such as http://tempuri.org/.`,
    );
  }

  const listed = new Set<string>();
  const bindings = new Set<Binding>();
  walk(root, (el) => {
    if (el.ns === WSDL_NS && el.local === 'portType') {
      for (const op of el.children) {
        const name = op.attrs.find((a) => a.local === 'name')?.value;
        if (op.local === 'operation' && name) listed.add(name);
      }
    }
    if (el.ns === WSDL_NS && el.local === 'binding') {
      for (const c of el.children) {
        if (c.local !== 'binding') continue;
        if (c.ns === WSDL_SOAP12_NS) bindings.add('soap12');
        else if (c.ns === WSDL_SOAP11_NS) bindings.add('soap11');
        else if (c.ns === WSDL_HTTP_NS) {
          const verb = c.attrs.find((a) => a.local === 'verb')?.value.toUpperCase();
          if (verb === 'GET') bindings.add('httpGet');
          if (verb === 'POST') bindings.add('httpPost');
        }
      }
    }
  });
  const operations = OPERATION_NAMES.filter((n) => listed.has(n));
  return {
    baseUrl,
    namespace,
    operations,
    missing: OPERATION_NAMES.filter((n) => !listed.has(n)),
    bindings: (['soap12', 'soap11', 'httpGet', 'httpPost'] as const).filter((b) => bindings.has(b)),
    warnings: addressWarnings(baseUrl),
  };
}

/**
 * Whether the service answers at all: one GET of its WSDL, no credentials, through the transport and the
 * trust given (those of every exchange with it). Any answer but "try later" counts (a service connected
 * with a namespace set by hand may have no WSDL to give); returns its HTTP status. Throws a CallError
 * when nothing answers (network, timeout), the certificate is refused, or the answer is "try later".
 */
export async function reach(baseUrl: string, options: ConnectOptions = {}): Promise<number> {
  const transport = (options.transport ?? nodeTransport)({ maxConnections: 1, trustedCertificate: options.trustedCertificate ?? null });
  try {
    const answer = await transport.exchange(
      'WSDL',
      { method: 'GET', url: new URL(wsdlUrl(normalizeBaseUrl(baseUrl))), headers: {}, body: '' },
      {
        timeoutMs: options.timeoutMs ?? 30_000,
        maxResponseBytes: options.maxResponseBytes ?? 8 * 1024 * 1024,
        signal: options.signal,
      },
    );
    if (UNAVAILABLE_STATUSES.has(answer.status)) throw new UnavailableError('WSDL', answer.status, parseRetryAfter(answer.retryAfter));
    return answer.status;
  } finally {
    transport.close();
  }
}

/** Fetches and reads `{base_url}/API/APIservice.asmx?WSDL`. Throws a CallError when it cannot. */
export async function connect(baseUrl: string, options: ConnectOptions = {}): Promise<ServiceDescription> {
  const base = normalizeBaseUrl(baseUrl);
  const transport = (options.transport ?? nodeTransport)({ maxConnections: 1, trustedCertificate: options.trustedCertificate ?? null });
  try {
    const url = new URL(wsdlUrl(base));
    const answer = await transport.exchange(
      'WSDL',
      { method: 'GET', url, headers: {}, body: '' },
      {
        timeoutMs: options.timeoutMs ?? 30_000,
        maxResponseBytes: options.maxResponseBytes ?? 8 * 1024 * 1024,
        signal: options.signal,
      },
    );
    if (UNAVAILABLE_STATUSES.has(answer.status)) throw new UnavailableError('WSDL', answer.status, parseRetryAfter(answer.retryAfter));
    if (answer.status !== 200) {
      throw new MalformedResponseError('WSDL', `The service answered HTTP ${answer.status} when asked for its WSDL.`, answer.status);
    }
    try {
      return readWsdl(answer.body, base);
    } catch (e) {
      if (e instanceof WireError) throw new MalformedResponseError('WSDL', `The WSDL could not be read: ${e.message}`, answer.status, e);
      throw e;
    }
  } finally {
    transport.close();
  }
}
