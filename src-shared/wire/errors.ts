/**
 * Typed errors of the codec. Each carries a message that is safe to show a caller: it names the
 * parameter, field or rule and never echoes more than a short, escaped piece of the input.
 */
export type WireErrorCode =
  | 'malformed-xml'
  | 'doctype-forbidden'
  | 'too-large'
  | 'too-deep'
  | 'not-an-envelope'
  /** A SOAP header the service does not understand is marked mustUnderstand. */
  | 'must-understand'
  | 'unknown-operation'
  | 'unknown-soap-action'
  | 'unsupported-media-type'
  | 'missing-parameter'
  | 'duplicate-parameter'
  | 'invalid-value'
  | 'missing-element'
  | 'unexpected-response';

/** HTTP status an ASMX service answers for each kind of request error. */
const STATUS: Record<WireErrorCode, number> = {
  'malformed-xml': 400,
  'doctype-forbidden': 400,
  'too-large': 413,
  'too-deep': 400,
  // Well-formed XML that is no SOAP request: only XML that does not parse is a 400 (service-decisions.md).
  'not-an-envelope': 500,
  'must-understand': 500,
  'unknown-operation': 404,
  'unknown-soap-action': 500,
  'unsupported-media-type': 415,
  'missing-parameter': 500,
  'duplicate-parameter': 500,
  'invalid-value': 500,
  'missing-element': 500,
  'unexpected-response': 500,
};

export class WireError extends Error {
  override name = 'WireError';
  constructor(
    readonly code: WireErrorCode,
    message: string,
    /** The parameter or field the error is about, when there is one. */
    readonly subject?: string,
  ) {
    super(message);
  }

  /** The status a service answers this error with. */
  get httpStatus(): number {
    return STATUS[this.code];
  }
}

/** A fault the service answered (SOAP fault, or the plain-text error of the GET/POST bindings). */
export class ServiceFault extends Error {
  override name = 'ServiceFault';
  constructor(
    /** `Client` for the caller's mistakes, `Server` for the service's own (SOAP 1.2 Sender/Receiver map here). */
    readonly faultCode: 'Client' | 'Server',
    message: string,
    readonly httpStatus: number,
    /**
     * The finer code the service marked the fault with, in the API's namespace (FAULT_SUBCODES): a SOAP 1.2
     * Subcode, an element of a SOAP 1.1 fault's detail, the GET and POST bindings' Fault-Subcode header.
     * Null for a fault without one: a refusal of the call like any other, whatever its words.
     */
    readonly subcode: FaultSubcode | null = null,
  ) {
    super(message);
  }
}

/**
 * The finer codes a fault may carry beside its Client/Server code and its words, which stay as the service
 * decisions fix them: InvalidCredentials, the client key, login or password refused (or the login locked).
 */
export const FAULT_SUBCODES = ['InvalidCredentials'] as const;
export type FaultSubcode = (typeof FAULT_SUBCODES)[number];

export const isFaultSubcode = (name: string): name is FaultSubcode => (FAULT_SUBCODES as readonly string[]).includes(name);

/** The header in which the HTTP GET and POST bindings, whose errors are plain text, carry a fault's subcode. */
export const FAULT_SUBCODE_HEADER = 'Fault-Subcode';

/** Shortens input quoted in a message so that an error never carries a large piece of a request. */
export function quote(value: string, max = 40): string {
  const short = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(short);
}
