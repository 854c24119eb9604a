import type { IncomingRequest, WireRequest } from '../../src-shared/wire';
import { SERVICE_PATH } from '../../src-shared/wire';

/** What a service sees of a request the codec built: the HTTP pieces it routes and parses on. */
export function toIncoming(req: WireRequest): IncomingRequest {
  const [path, query] = req.path.split('?') as [string, string | undefined];
  const tail = path.slice(SERVICE_PATH.length);
  return {
    method: req.method,
    pathOperation: tail.startsWith('/') ? tail.slice(1) : undefined,
    query,
    contentType: req.headers['Content-Type'],
    soapAction: req.headers.SOAPAction,
    body: req.body,
  };
}
