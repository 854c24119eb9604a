/**
 * Calling a service over real HTTP in tests: requests built by the codec (or by hand for broken ones),
 * answers returned raw (status, content type, body) so that tests can check them byte by byte, or read
 * by the codec into typed results.
 */
import type { Credentials, OperationName, ParamsOf, ResultOf } from '../../src-shared/catalog';
import { FAULT_SUBCODE_HEADER, buildRequest, parseResponse, type Binding, type WireRequest } from '../../src-shared/wire';

export interface RawResponse {
  status: number;
  contentType: string;
  body: string;
  headers: Headers;
}

export async function send(baseUrl: string, req: WireRequest): Promise<RawResponse> {
  const res = await fetch(baseUrl + req.path, {
    method: req.method,
    headers: req.headers,
    ...(req.method === 'GET' ? {} : { body: req.body }),
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text(), headers: res.headers };
}

export interface Target {
  url: string;
  namespace: string;
}

/** One call of an operation in a binding, answered raw. */
export function callRaw<N extends OperationName>(
  target: Target,
  binding: Binding,
  operation: N,
  credentials: Credentials,
  params: ParamsOf<N>,
): Promise<RawResponse> {
  return send(target.url, buildRequest(binding, { operation, credentials, params }, target.namespace));
}

/** One call read by the codec; throws the ServiceFault the service answered (with its subcode), if any. */
export async function call<N extends OperationName>(
  target: Target,
  binding: Binding,
  operation: N,
  credentials: Credentials,
  params: ParamsOf<N>,
  timeZone = 'Europe/Prague',
): Promise<ResultOf<N>> {
  const res = await callRaw(target, binding, operation, credentials, params);
  return parseResponse(
    operation,
    { ...res, faultSubcode: res.headers.get(FAULT_SUBCODE_HEADER) },
    { timeZone, namespace: target.namespace },
  );
}
