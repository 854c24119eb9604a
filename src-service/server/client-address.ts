/**
 * Who a connection or a request comes from, as the caps on connections and the queue of password
 * verifications count it.
 *
 * - An address is an IPv4 address (also when the socket shows it IPv4-mapped, `::ffff:a.b.c.d`), or the
 *   first 64 bits of an IPv6 address: one host is given a whole /64 and can pick any address in it.
 * - Trusted proxies (addresses or CIDR blocks the operator names) stand for many clients. Their connections
 *   are not capped per address (a connection carries no header to tell its clients apart, and a proxy
 *   sends many clients' requests over each of its kept connections); a request from one names its client
 *   in `X-Forwarded-For`, read from the right (what the nearest proxy appended) past the trusted proxies
 *   to the first address that is not one. From anyone else that header is the caller's own words and
 *   is ignored.
 */
import { BlockList, isIP } from 'node:net';

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The address as a plain IP: IPv4-mapped IPv6 as IPv4, without an IPv6 zone (`%eth0`), brackets dropped. */
function plain(address: string): string {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const unzoned = bare.includes('%') ? bare.slice(0, bare.indexOf('%')) : bare;
  return MAPPED_IPV4.exec(unzoned)?.[1] ?? unzoned;
}

/** The first four groups of an IPv6 address, written out in hex without leading zeros. */
function prefix64(address: string): string {
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  // A dotted IPv4 tail (::1.2.3.4) holds two groups.
  const width = (gs: string[]) => gs.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const first = groups(head);
  const all = tail === undefined ? first : [...first, ...Array<string>(8 - width(first) - width(groups(tail))).fill('0'), ...groups(tail)];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** What one client's connections and verifications are counted under: its IPv4 address or its IPv6 /64. */
export function addressKey(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  const ip = plain(address);
  return isIP(ip) === 6 ? prefix64(ip) : ip;
}

/** An entry of a trusted proxy list (`10.0.0.7`, `10.0.0.0/8`, `::1`, `fd00::/8`), or null when it is none. */
export function parseProxyEntry(entry: string): { network: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', bits, extra] = entry.trim().split('/');
  const network = plain(address);
  const version = isIP(network);
  if (version === 0 || extra !== undefined) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return { network, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

export class TrustedProxies {
  private readonly list = new BlockList();
  readonly entries: readonly string[];

  /** `entries` as parseProxyEntry reads them; an entry that is none throws a RangeError naming it. */
  constructor(entries: readonly string[] = []) {
    for (const entry of entries) {
      const parsed = parseProxyEntry(entry);
      if (!parsed) {
        throw new RangeError(`${JSON.stringify(entry)} is not an address or a CIDR block (such as 10.0.0.7, 10.0.0.0/8 or fd00::/8).`);
      }
      this.list.addSubnet(parsed.network, parsed.prefix, parsed.family);
    }
    this.entries = [...entries];
  }

  has(address: string | undefined): boolean {
    if (address === undefined || this.entries.length === 0) return false;
    const ip = plain(address);
    const version = isIP(ip);
    return version !== 0 && this.list.check(ip, version === 4 ? 'ipv4' : 'ipv6');
  }

  /**
   * The address a request comes from: its connection's peer; from a trusted proxy, the first address
   * of `X-Forwarded-For`, from the right, that is not a trusted proxy (a malformed entry ends the walk at
   * the proxy that passed it on).
   */
  clientOf(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
    let client = peer;
    if (!this.has(peer) || forwardedFor === undefined) return addressKey(client);
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
    for (let i = hops.length - 1; i >= 0 && this.has(client); i--) {
      const hop = plain(hops[i]!.trim());
      if (isIP(hop) === 0) break;
      client = hop;
    }
    return addressKey(client);
  }
}
