/**
 * Server-side request forgery guard. A monitor fetches URLs its caller chose, and delivers webhooks to
 * URLs its caller chose: without a guard either is a way into the service's private network. Every
 * address a host name resolves to is checked, and the connection is then made to exactly the address
 * that was checked (the resolver result is handed to the socket through `lookup`), so a second DNS answer
 * cannot swap in a private address between the check and the connect. Redirects go through the same path
 * on every hop.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Host name → addresses. The default asks the system resolver; tests inject a fake DNS. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface AddressGuard {
  /** `DOCMILL_ALLOW_PRIVATE_URLS=true`: every address is allowed. */
  allowPrivate: boolean;
  resolve: Resolver;
  /** Addresses treated as public although their range is not (a test seam; not configurable by env). */
  trust?: (address: string) => boolean;
}

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError';
  readonly code = 'SSRF_REFUSED';
}

const V4_RANGES: Array<[string, number, string]> = [
  ['0.0.0.0', 8, '"this network"'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function v4Reason(ip: string): string | undefined {
  const n = v4ToInt(ip);
  for (const [base, bits, label] of V4_RANGES) {
    const size = 2 ** (32 - bits);
    const start = v4ToInt(base);
    if (n >= start && n < start + size) return label;
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail is converted). */
function v6Groups(ip: string): number[] {
  let text = ip.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4ToInt(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array<string>(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => parseInt(g || '0', 16));
}

function embeddedV4(g: number[]): string {
  return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.');
}

function v6Reason(ip: string): string | undefined {
  const g = v6Groups(ip);
  if (g.every((x) => x === 0)) return 'unspecified';
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address.
  const mapped = g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0);
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (mapped || nat64) return v4Reason(embeddedV4(g));
  if (g[0] === 0x2002) return v4Reason([g[1]! >> 8, g[1]! & 255, g[2]! >> 8, g[2]! & 255].join('.'));
  if ((g[0]! & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g[0]! & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0]! & 0xffc0) === 0xfec0) return 'site-local';
  if ((g[0]! & 0xff00) === 0xff00) return 'multicast';
  return undefined;
}

/** Why an address may not be fetched (loopback, private, ...), or undefined when it is public. */
export function forbiddenReason(address: string): string | undefined {
  const v = isIP(address);
  if (v === 4) return v4Reason(address);
  if (v === 6) return v6Reason(address);
  return 'not an IP address';
}

function refuse(host: string, address: string, reason: string): RefusedAddressError {
  const shown = host === address ? address : `${host} (${address})`;
  return new RefusedAddressError(
    `Refused to connect to ${shown}: ${reason} addresses are not fetched (set DOCMILL_ALLOW_PRIVATE_URLS=true to allow them).`,
  );
}

/** Throws RefusedAddressError when `address` may not be connected to under `guard`. */
export function assertAllowed(guard: AddressGuard, host: string, address: string): void {
  if (guard.allowPrivate || guard.trust?.(address)) return;
  const reason = forbiddenReason(address);
  if (reason) throw refuse(host, address, reason);
}

/** Strips the brackets URL gives IPv6 literals. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Resolves `hostname`, refuses it when any of its addresses is forbidden (an attacker controls which one
 * a client would pick), and returns the checked addresses: the only ones the socket may connect to.
 */
export async function resolveAllowed(guard: AddressGuard, hostname: string): Promise<ResolvedAddress[]> {
  const host = bareHost(hostname);
  const literal = isIP(host);
  if (literal) {
    assertAllowed(guard, host, host);
    return [{ address: host, family: literal === 6 ? 6 : 4 }];
  }
  const addresses = await guard.resolve(host);
  if (addresses.length === 0) throw new Error(`${host}: the name does not resolve.`);
  for (const a of addresses) assertAllowed(guard, host, a.address);
  return addresses;
}

/** A `lookup` for http(s).request that answers only with addresses already checked. */
export function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean; family?: number }, callback: (...args: unknown[]) => void) => {
    const wanted =
      options?.family === 4 || options?.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const list = wanted.length > 0 ? wanted : addresses;
    if (options?.all)
      callback(
        null,
        list.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, list[0]!.address, list[0]!.family);
  }) as unknown as LookupFunction;
}
