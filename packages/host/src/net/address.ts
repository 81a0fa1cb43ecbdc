import { BlockList, isIP } from 'node:net';

/**
 * Address classification: which IP addresses are "private" (not a public internet target).
 *
 * We block every IANA special-purpose range that is not globally reachable, plus the forms of
 * IPv6 that embed an IPv4 address (mapped, compatible, NAT64, 6to4) when the embedded address
 * is private. Pure: no DNS, no I/O.
 */

/** IPv4 ranges that are not public targets (RFC 6890 / IANA special-purpose registry). */
const IPV4_PRIVATE_RANGES: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, '"this network" / unspecified'],
  ['10.0.0.0', 8, 'private (RFC 1918)'],
  ['100.64.0.0', 10, 'carrier-grade NAT (RFC 6598)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation (TEST-NET-1)'],
  ['192.88.99.0', 24, 'deprecated 6to4 relay anycast'],
  ['192.168.0.0', 16, 'private (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation (TEST-NET-2)'],
  ['203.0.113.0', 24, 'documentation (TEST-NET-3)'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved / broadcast'],
];

/** IPv6 ranges that are not public targets. Embedded-IPv4 forms are handled separately. */
const IPV6_PRIVATE_RANGES: ReadonlyArray<readonly [string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'local-use NAT64'],
  ['100::', 64, 'discard-only'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local (deprecated)'],
  ['ff00::', 8, 'multicast'],
];

interface Range {
  reason: string;
  list: BlockList;
}

function buildRanges(ranges: ReadonlyArray<readonly [string, number, string]>, family: 'ipv4' | 'ipv6') {
  const all = new BlockList();
  const each: Range[] = [];
  for (const [network, prefix, reason] of ranges) {
    all.addSubnet(network, prefix, family);
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    each.push({ reason, list });
  }
  return { all, each };
}

const ipv4Ranges = buildRanges(IPV4_PRIVATE_RANGES, 'ipv4');
const ipv6Ranges = buildRanges(IPV6_PRIVATE_RANGES, 'ipv6');

/** A parsed IP literal: its family and, for IPv6 forms that embed an IPv4 address, that address. */
export interface ParsedAddress {
  /** The address without a zone id (`fe80::1%eth0` -> `fe80::1`). */
  address: string;
  family: 'ipv4' | 'ipv6';
  /** The IPv4 address embedded in a mapped, compatible, NAT64 or 6to4 IPv6 address. */
  embeddedIpv4?: string;
  /** Which embedding `embeddedIpv4` came from. */
  embedding?: 'mapped' | 'compatible' | 'nat64' | '6to4';
}

/** Expands an IPv6 literal to its eight 16-bit groups (via the WHATWG URL canonical form). */
function ipv6Groups(address: string): number[] | null {
  let host: string;
  try {
    host = new URL(`http://[${address}]/`).hostname;
  } catch {
    return null;
  }
  // Canonical form: lowercase hex, at most one "::", never a dotted quad.
  const inner = host.slice(1, -1);
  const [head = '', tail] = inner.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(zeros).fill('0'), ...right].map((g) => Number.parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g)) ? groups : null;
}

function ipv4From(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/**
 * Parses an IP literal (IPv4 dotted quad or IPv6, with an optional zone id). Returns null when
 * `ip` is not an IP literal (hostnames, `127.1`, `0x7f.0.0.1` and other legacy forms included).
 *
 * @example
 * parseAddress('::ffff:7f00:1'); // { address: '::ffff:7f00:1', family: 'ipv6', embeddedIpv4: '127.0.0.1', embedding: 'mapped' }
 */
export function parseAddress(ip: string): ParsedAddress | null {
  const address = ip.includes('%') ? ip.slice(0, ip.indexOf('%')) : ip;
  const version = isIP(address);
  if (version === 4) return { address, family: 'ipv4' };
  if (version !== 6) return null;
  const g = ipv6Groups(address);
  if (!g) return null;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = g;
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFiveZero && g5 === 0xffff) {
    return { address, family: 'ipv6', embeddedIpv4: ipv4From(g6, g7), embedding: 'mapped' };
  }
  // ::/96 IPv4-compatible (deprecated). `::` and `::1` are matched by the IPv6 list first.
  if (firstFiveZero && g5 === 0) {
    return { address, family: 'ipv6', embeddedIpv4: ipv4From(g6, g7), embedding: 'compatible' };
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return { address, family: 'ipv6', embeddedIpv4: ipv4From(g6, g7), embedding: 'nat64' };
  }
  if (g0 === 0x2002) {
    return { address, family: 'ipv6', embeddedIpv4: ipv4From(g1 ?? 0, g2 ?? 0), embedding: '6to4' };
  }
  return { address, family: 'ipv6' };
}

/**
 * Why an address is private, or null when it is a public address. A string that is not an IP
 * literal gets the reason `'not an IP address'` (fail closed).
 *
 * @example
 * privateAddressReason('10.1.2.3'); // 'private (RFC 1918)'
 * privateAddressReason('93.184.216.34'); // null
 */
export function privateAddressReason(ip: string): string | null {
  const parsed = parseAddress(ip);
  if (!parsed) return 'not an IP address';
  if (parsed.family === 'ipv4') return rangeReason(ipv4Ranges.each, parsed.address, 'ipv4');
  const own = rangeReason(ipv6Ranges.each, parsed.address, 'ipv6');
  if (own || parsed.embeddedIpv4 === undefined) return own;
  const inner = rangeReason(ipv4Ranges.each, parsed.embeddedIpv4, 'ipv4');
  return inner ? `${inner} (IPv4 embedded in IPv6, ${parsed.embedding})` : null;
}

function rangeReason(ranges: readonly Range[], address: string, family: 'ipv4' | 'ipv6'): string | null {
  for (const range of ranges) if (range.list.check(address, family)) return range.reason;
  return null;
}

/**
 * True when `ip` is not a public internet address: loopback, private (RFC 1918), link-local,
 * unique-local, multicast, unspecified, CGNAT, 0.0.0.0/8, documentation/benchmarking/reserved
 * ranges, and IPv4-mapped / compatible / NAT64 / 6to4 IPv6 forms of any of those.
 * A string that is not an IP literal counts as private (fail closed).
 *
 * @example
 * isPrivateAddress('127.0.0.1'); // true
 * isPrivateAddress('::ffff:7f00:1'); // true
 * isPrivateAddress('8.8.8.8'); // false
 */
export function isPrivateAddress(ip: string): boolean {
  const parsed = parseAddress(ip);
  if (!parsed) return true;
  if (parsed.family === 'ipv4') return ipv4Ranges.all.check(parsed.address, 'ipv4');
  if (ipv6Ranges.all.check(parsed.address, 'ipv6')) return true;
  return parsed.embeddedIpv4 !== undefined && ipv4Ranges.all.check(parsed.embeddedIpv4, 'ipv4');
}
