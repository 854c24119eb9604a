/** The four bindings of service-interface.md 4.1 and their fixed names, namespaces and content types. */
export type Binding = 'soap12' | 'soap11' | 'httpGet' | 'httpPost';
export const BINDINGS: readonly Binding[] = ['soap12', 'soap11', 'httpGet', 'httpPost'];
export const isSoap = (b: Binding): b is 'soap11' | 'soap12' => b === 'soap11' || b === 'soap12';

export const SERVICE_PATH = '/API/APIservice.asmx';

export const SOAP11_ENVELOPE_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_ENVELOPE_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

export const CONTENT_TYPE = {
  soap11: 'text/xml; charset=utf-8',
  soap12: 'application/soap+xml; charset=utf-8',
  xml: 'text/xml; charset=utf-8',
  form: 'application/x-www-form-urlencoded',
  text: 'text/plain; charset=utf-8',
} as const;

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/** One parameter of a Content-Type header (`action` of SOAP 1.2, `charset`), unquoted. */
export function contentTypeParam(contentType: string | undefined, name: string): string | undefined {
  for (const part of (contentType ?? '').split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim().toLowerCase() !== name) continue;
    return unquote(part.slice(eq + 1).trim());
  }
  return undefined;
}

export function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

/** What the envelope namespace of a SOAP version is. */
export const envelopeNs = (b: 'soap11' | 'soap12'): string => (b === 'soap11' ? SOAP11_ENVELOPE_NS : SOAP12_ENVELOPE_NS);
