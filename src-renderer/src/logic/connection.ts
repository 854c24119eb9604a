/** Checks on a service address the user types, before anything is sent to it. */
import { isInsecureRemoteUrl } from '../../../src-shared/service-address';

export type AddressProblem = 'invalid' | 'scheme';

/** Why an address cannot be used, or null when it can. */
export function addressProblem(text: string): AddressProblem | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return 'invalid';
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'scheme';
}

/** True for http:// to another machine: the credentials travel unencrypted in every request. */
export function isInsecureRemote(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return false;
  }
  return isInsecureRemoteUrl(url);
}
