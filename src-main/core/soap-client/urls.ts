/** The service's addresses derived from the base URL the user gives. */
import { AppError, type ConnectionWarning } from '../../../src-shared/app-api';
import { isInsecureRemote, parseServiceAddress } from '../../../src-shared/service-address';
import { SERVICE_PATH } from '../../../src-shared/wire';

/**
 * The canonical base URL: http(s) only, no query or fragment, no trailing slash, and without the
 * service path when the user pasted the whole address (`.../API/APIservice.asmx?WSDL`).
 * Throws an AppError about `baseUrl` when the text is not such an address.
 */
export function normalizeBaseUrl(input: string): string {
  const { url, problem } = parseServiceAddress(input);
  if (problem) throw new AppError(problem, {}, 'baseUrl');
  let path = url.pathname.replace(/\/+$/, '');
  if (path.toLowerCase().endsWith(SERVICE_PATH.toLowerCase())) path = path.slice(0, -SERVICE_PATH.length);
  return `${url.protocol}//${url.host}${path.replace(/\/+$/, '')}`;
}

/** `{base_url}/API/APIservice.asmx`. */
export function serviceUrl(baseUrl: string): string {
  return normalizeBaseUrl(baseUrl) + SERVICE_PATH;
}

export function wsdlUrl(baseUrl: string): string {
  return `${serviceUrl(baseUrl)}?WSDL`;
}

/** Warnings about an address the user should know of before sending credentials to it. */
export function addressWarnings(baseUrl: string): ConnectionWarning[] {
  return isInsecureRemote(normalizeBaseUrl(baseUrl)) ? [{ code: 'insecureAddress', params: {} }] : [];
}
