/** The service's addresses derived from the base URL the user gives. */
import { isInsecureRemoteUrl } from '../../../src-shared/service-address';
import { SERVICE_PATH } from '../../../src-shared/wire';

/**
 * The canonical base URL: http(s) only, no query or fragment, no trailing slash, and without the
 * service path when the user pasted the whole address (`.../API/APIservice.asmx?WSDL`).
 * Throws a RangeError with a message fit for the user when the text is not such an address.
 */
export function normalizeBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new RangeError('The service address must be a full URL such as https://example.com.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RangeError('The service address must start with http:// or https://.');
  }
  if (url.username || url.password) throw new RangeError('The service address must not carry a user name or password.');
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
export function addressWarnings(baseUrl: string): string[] {
  const url = new URL(normalizeBaseUrl(baseUrl));
  if (isInsecureRemoteUrl(url)) {
    return [
      'This address uses plain http:// to another machine: the client key, login and password travel unencrypted in every request. Use https:// if the service offers it.',
    ];
  }
  return [];
}
