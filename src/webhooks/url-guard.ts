/**
 * SSRF guard for webhook URLs.
 *
 * A webhook URL is attacker-controlled input that makes our servers open connections, so it is
 * checked twice: at registration (clear error for the integrator) and again at every delivery,
 * where the host is resolved, every resolved address is checked, and the socket is pinned to the
 * address that passed the check (see `createPinnedLookup`), so a DNS answer that changes between
 * check and connect (DNS rebinding) cannot reach an internal address.
 *
 * Numeric tricks (`http://2130706433/`, `0x7f.1`, `0177.0.0.1`, `[::ffff:7f00:1]`) are handled by
 * parsing with the WHATWG URL parser, which normalises every IPv4 spelling to dotted decimal, and by
 * classifying IPv6 addresses numerically, including IPv4-mapped, NAT64 and 6to4 forms.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';

export type AddressCategory =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'cgnat'
  | 'this_network'
  | 'multicast'
  | 'reserved'
  | 'documentation'
  | 'unique_local'
  | 'ipv4_mapped'
  | 'ipv4_translated';

/** Categories an operator may open with `allowPrivate` (local testing); everything else non-public stays closed. */
const OPENED_BY_ALLOW_PRIVATE: ReadonlySet<AddressCategory> = new Set(['loopback', 'private', 'unique_local']);

export type UrlGuardErrorCode =
  | 'invalid_url'
  | 'https_required'
  | 'credentials_in_url'
  | 'unresolvable_host'
  | 'forbidden_address';

export class UrlGuardError extends Error {
  constructor(
    readonly code: UrlGuardErrorCode,
    message: string,
    readonly address?: string,
    readonly category?: AddressCategory,
  ) {
    super(message);
    this.name = 'UrlGuardError';
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (like `dns.lookup(host, {all: true})`). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface UrlGuardOptions {
  /** Operator switch for local testing: allows loopback/private/ULA targets and plain http to loopback. */
  allowPrivate: boolean;
  resolver?: Resolver;
}

export type UrlCheckResult =
  | { ok: true; url: URL; hostname: string; addresses: ResolvedAddress[] }
  | { ok: false; error: UrlGuardError };

// ---------------------------------------------------------------- address classification

function ipv4ToInt(ip: string): number {
  const parts = ip.split('.').map(Number);
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

function inV4(ip: number, base: string, prefix: number): boolean {
  if (prefix === 0) return true;
  const mask = (0xffffffff << (32 - prefix)) >>> 0;
  return ((ip & mask) >>> 0) === ((ipv4ToInt(base) & mask) >>> 0);
}

const V4_RANGES: Array<[string, number, AddressCategory]> = [
  ['0.0.0.0', 8, 'this_network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link_local'], // includes the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // includes 255.255.255.255
];

export function classifyIPv4(ip: string): AddressCategory {
  const n = ipv4ToInt(ip);
  for (const [base, prefix, category] of V4_RANGES) if (inV4(n, base, prefix)) return category;
  return 'public';
}

/** Parses any valid IPv6 text form (with `::`, embedded dotted IPv4, zone id) into a 128-bit integer. */
export function parseIPv6(text: string): bigint {
  let s = text.toLowerCase().replace(/%.*$/, '');
  if (isIP(s) !== 6) throw new Error(`not an IPv6 address: ${text}`);
  // Rewrite a trailing dotted IPv4 part (::ffff:1.2.3.4) as two hex groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const v4 = ipv4ToInt(dotted[1]!);
    s = s.slice(0, dotted.index) + `${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  let groups: number[];
  const gap = s.indexOf('::');
  if (gap >= 0) {
    const head = groupsOf(s.slice(0, gap));
    const tail = groupsOf(s.slice(gap + 2));
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    groups = groupsOf(s);
  }
  if (groups.length !== 8) throw new Error(`not an IPv6 address: ${text}`);
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

function inV6(ip: bigint, base: bigint, prefix: number): boolean {
  const shift = BigInt(128 - prefix);
  return ip >> shift === base >> shift;
}

const V6_RANGES: Array<[bigint, number, AddressCategory]> = [
  [0n, 128, 'this_network'], // ::
  [1n, 128, 'loopback'], // ::1
  [0xffffn << 32n, 96, 'ipv4_mapped'], // ::ffff:0:0/96
  [0n, 96, 'reserved'], // deprecated IPv4-compatible ::a.b.c.d
  [0x0064ff9bn << 96n, 96, 'ipv4_translated'], // NAT64 64:ff9b::/96
  [0x0064ff9b0001n << 80n, 48, 'ipv4_translated'], // local-use NAT64 64:ff9b:1::/48
  [0x2002n << 112n, 16, 'ipv4_translated'], // 6to4 embeds an IPv4 address
  [0x20010000n << 96n, 32, 'ipv4_translated'], // Teredo
  [0x0100n << 112n, 64, 'reserved'], // discard-only 100::/64
  [0x20010db8n << 96n, 32, 'documentation'],
  [0xfc00n << 112n, 7, 'unique_local'],
  [0xfe80n << 112n, 10, 'link_local'],
  [0xfec0n << 112n, 10, 'reserved'], // deprecated site-local
  [0xff00n << 112n, 8, 'multicast'],
];

export function classifyIPv6(ip: string): AddressCategory {
  const n = parseIPv6(ip);
  for (const [base, prefix, category] of V6_RANGES) if (inV6(n, base, prefix)) return category;
  return 'public';
}

export function classifyAddress(ip: string): AddressCategory {
  const kind = isIP(ip.replace(/%.*$/, ''));
  if (kind === 4) return classifyIPv4(ip);
  if (kind === 6) return classifyIPv6(ip);
  throw new Error(`not an IP address: ${ip}`);
}

/** Whether a resolved address may be connected to under the given options. */
export function isAddressAllowed(ip: string, allowPrivate: boolean): boolean {
  const category = classifyAddress(ip);
  return category === 'public' || (allowPrivate && OPENED_BY_ALLOW_PRIVATE.has(category));
}

function forbidden(ip: string): UrlGuardError {
  const category = classifyAddress(ip);
  return new UrlGuardError(
    'forbidden_address',
    `webhook host resolves to a non-public address (${category.replace('_', ' ')})`,
    ip,
    category,
  );
}

// ---------------------------------------------------------------- URL check

function stripBrackets(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Checks a webhook URL: syntax, scheme, no credentials, and every address its host resolves to.
 * Never throws for bad input; returns a typed error instead.
 */
export async function checkWebhookUrl(rawUrl: string, options: UrlGuardOptions): Promise<UrlCheckResult> {
  const fail = (error: UrlGuardError): UrlCheckResult => ({ ok: false, error });
  if (typeof rawUrl !== 'string' || rawUrl.length === 0 || rawUrl.length > 2048) {
    return fail(new UrlGuardError('invalid_url', 'webhook url must be a string of 1 to 2048 characters'));
  }
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return fail(new UrlGuardError('invalid_url', 'webhook url is not a valid absolute URL'));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return fail(new UrlGuardError('https_required', 'webhook url must use https'));
  }
  if (url.username !== '' || url.password !== '') {
    return fail(new UrlGuardError('credentials_in_url', 'webhook url must not contain credentials'));
  }
  const hostname = stripBrackets(url.hostname);
  if (hostname === '') return fail(new UrlGuardError('invalid_url', 'webhook url has no host'));

  let addresses: ResolvedAddress[];
  const literal = isIP(hostname);
  if (literal) {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolver ?? systemResolver)(hostname);
    } catch {
      return fail(new UrlGuardError('unresolvable_host', `webhook host ${hostname} could not be resolved`));
    }
    if (addresses.length === 0) {
      return fail(new UrlGuardError('unresolvable_host', `webhook host ${hostname} has no addresses`));
    }
  }
  // Every address must pass: a host with one public and one private address is refused, since
  // the client could connect to either.
  for (const a of addresses) {
    if (isIP(a.address) === 0) return fail(new UrlGuardError('unresolvable_host', 'resolver returned a non-IP answer'));
    if (!isAddressAllowed(a.address, options.allowPrivate)) return fail(forbidden(a.address));
  }
  if (url.protocol === 'http:') {
    // Plain http only for local testing against loopback, never towards the network.
    const allLoopback = addresses.every((a) => classifyAddress(a.address) === 'loopback');
    if (!(options.allowPrivate && allLoopback)) {
      return fail(new UrlGuardError('https_required', 'webhook url must use https'));
    }
  }
  return { ok: true, url, hostname, addresses };
}

/**
 * A `lookup` for `https.request` that returns only the address that was already checked, so the
 * socket connects to exactly the vetted IP whatever DNS answers now.
 */
export function createPinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (typeof options === 'function') {
      (options as (...args: unknown[]) => void)(null, pinned.address, pinned.family);
      return;
    }
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
}
