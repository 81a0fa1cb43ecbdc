import dns from 'node:dns';
import type { AddressPolicy } from '../../../net/index.js';
import { guardedLookup } from '../../../net/index.js';

/**
 * Resolves `host` and checks EVERY address it resolves to against the address policy (through the
 * net folder's {@link guardedLookup}); returns the first one, which the client then connects to by
 * IP, so a DNS answer that changes afterwards (rebinding) cannot slip in another address. Rejects
 * with `TargetBlockedError` (code `target_blocked`) or the resolver's error (`ENOTFOUND`...).
 * An IP literal is checked as it is.
 *
 * @example
 * const ip = await resolveAllowedAddress('rabbit.example.com', policy); // '203.0.113.7'
 * net.connect({ host: ip, port: 5672 });
 */
export function resolveAllowedAddress(
  host: string,
  policy: AddressPolicy,
  lookup: typeof dns.lookup = dns.lookup,
): Promise<string> {
  const check = guardedLookup(policy, lookup);
  return new Promise((resolve, reject) => {
    check(host, {}, (error, address) => {
      if (error) reject(error);
      else if (typeof address === 'string') resolve(address);
      else reject(new Error(`no address for ${host}`));
    });
  });
}
