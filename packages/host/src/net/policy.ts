import { BlockList } from 'node:net';
import { isPrivateAddress, parseAddress, privateAddressReason } from './address.js';
import { InvalidAddressPolicyError } from './errors.js';

/** Which connection targets are allowed. Public addresses are always allowed. */
export interface AddressPolicy {
  /** `'block'`: no private target; `'allow-all'`: every target; `'allow-list'`: private targets in `cidrs` only. */
  readonly mode: 'block' | 'allow-all' | 'allow-list';
  /** The allowed private CIDRs (normalized), for `'allow-list'`. */
  readonly cidrs: readonly string[];
  /** True when a connection to the IP literal `ip` is allowed. Non-IP strings are never allowed. */
  allows(ip: string): boolean;
  /** Why `ip` is refused, or null when it is allowed. */
  refusal(ip: string): string | null;
  /** True when some private targets are allowed (this also permits `http:` webhook URLs). */
  readonly allowsPrivate: boolean;
}

function parseCidr(entry: string): { network: string; prefix: number; family: 'ipv4' | 'ipv6' } {
  const slash = entry.indexOf('/');
  const host = slash === -1 ? entry : entry.slice(0, slash);
  const prefixText = slash === -1 ? undefined : entry.slice(slash + 1);
  const parsed = parseAddress(host);
  if (!parsed || host.includes('%'))
    throw new InvalidAddressPolicyError(entry, `"${host}" is not an IP address`);
  const max = parsed.family === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return { network: parsed.address, prefix: max, family: parsed.family };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) {
    throw new InvalidAddressPolicyError(entry, `prefix length must be 0-${max} for ${parsed.family}`);
  }
  return { network: parsed.address, prefix: Number(prefixText), family: parsed.family };
}

function createPolicy(mode: AddressPolicy['mode'], cidrs: readonly string[], list: BlockList): AddressPolicy {
  const allowedByList = (ip: string): boolean => {
    const parsed = parseAddress(ip);
    if (!parsed) return false;
    if (list.check(parsed.address, parsed.family)) return true;
    return parsed.embeddedIpv4 !== undefined && list.check(parsed.embeddedIpv4, 'ipv4');
  };
  const refusal = (ip: string): string | null => {
    if (!parseAddress(ip)) return 'not an IP address';
    if (!isPrivateAddress(ip) || mode === 'allow-all') return null;
    if (mode === 'allow-list' && allowedByList(ip)) return null;
    const reason = privateAddressReason(ip) ?? 'private';
    return mode === 'allow-list' ? `${reason}, not in the allow-list` : reason;
  };
  return {
    mode,
    cidrs,
    allowsPrivate: mode !== 'block',
    refusal,
    allows: (ip) => refusal(ip) === null,
  };
}

/**
 * Parses `PLATFORM_ALLOW_PRIVATE_TARGETS`: unset, empty, `0` or `false` blocks every private
 * target; `1` or `true` allows them all; a comma-separated list of CIDRs (a bare address means
 * /32 or /128) allows those only. Throws {@link InvalidAddressPolicyError} naming a bad entry.
 *
 * @example
 * const policy = parseAllowPrivateTargets(process.env.PLATFORM_ALLOW_PRIVATE_TARGETS);
 * parseAllowPrivateTargets('127.0.0.0/8').allows('127.0.0.1'); // true
 * parseAllowPrivateTargets(undefined).allows('10.0.0.1'); // false
 */
export function parseAllowPrivateTargets(value: string | undefined): AddressPolicy {
  const text = (value ?? '').trim();
  const lower = text.toLowerCase();
  if (text === '' || lower === '0' || lower === 'false') return createPolicy('block', [], new BlockList());
  if (lower === '1' || lower === 'true') return createPolicy('allow-all', [], new BlockList());
  const list = new BlockList();
  const cidrs: string[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') throw new InvalidAddressPolicyError(raw, 'empty entry');
    const { network, prefix, family } = parseCidr(entry);
    list.addSubnet(network, prefix, family);
    cidrs.push(`${network}/${prefix}`);
  }
  return createPolicy('allow-list', cidrs, list);
}

/**
 * The default policy: every private target blocked.
 *
 * @example
 * blockPrivateTargets().allows('192.168.1.1'); // false
 */
export function blockPrivateTargets(): AddressPolicy {
  return parseAllowPrivateTargets(undefined);
}
