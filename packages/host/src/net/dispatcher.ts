import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { Agent, buildConnector } from 'undici';
import { TargetBlockedError } from './errors.js';
import type { AddressPolicy } from './policy.js';

/** Options of {@link createGuardedDispatcher}. */
export interface GuardedDispatcherOptions {
  /** Most sockets per origin (keep-alive pool). Default 8. */
  connectionsPerOrigin?: number;
  /** Idle keep-alive socket lifetime in ms. Default 4000. */
  keepAliveTimeoutMs?: number;
  /** TCP + TLS connect timeout in ms. Default 10000. */
  connectTimeoutMs?: number;
  /** Extra TLS options (e.g. `ca` for a test certificate authority). */
  tls?: Pick<ConnectionOptions, 'ca' | 'rejectUnauthorized'>;
  /** Name resolution, `dns.lookup`-shaped. Default `dns.lookup` (the system resolver). */
  lookup?: typeof dns.lookup;
}

type LookupCallback = Parameters<LookupFunction>[2];

/**
 * A `net.connect` lookup that resolves every address of `hostname` and refuses the connection
 * (with {@link TargetBlockedError}) when ANY of them is not allowed by `policy`, so the address
 * handed to the socket is always one that was checked: a DNS answer that changes between a
 * validation and the connection (rebinding) is checked again here.
 *
 * @example
 * net.connect({ host: 'example.com', port: 443, lookup: guardedLookup(policy) });
 */
export function guardedLookup(policy: AddressPolicy, lookup: typeof dns.lookup = dns.lookup): LookupFunction {
  return (hostname, options, callback: LookupCallback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '');
        return;
      }
      if (addresses.length === 0) {
        const empty = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
        callback(empty, '');
        return;
      }
      for (const { address } of addresses) {
        const refusal = policy.refusal(address);
        if (refusal !== null) {
          callback(new TargetBlockedError(hostname, address, refusal), '');
          return;
        }
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * An undici {@link Agent} (keep-alive pool, bounded sockets per origin) that connects only to
 * addresses the policy allows. Checks happen at connection time: literal-IP hosts before
 * connecting, names on every resolved address, and the socket's actual remote address once
 * connected. A refusal fails the request with {@link TargetBlockedError} (code `target_blocked`).
 *
 * @example
 * const dispatcher = createGuardedDispatcher(parseAllowPrivateTargets(process.env.PLATFORM_ALLOW_PRIVATE_TARGETS));
 * await undici.request('https://hooks.example.com/in', { method: 'POST', dispatcher });
 */
export function createGuardedDispatcher(
  policy: AddressPolicy,
  options: GuardedDispatcherOptions = {},
): Agent {
  const base = buildConnector({
    timeout: options.connectTimeoutMs ?? 10_000,
    lookup: guardedLookup(policy, options.lookup),
    ...options.tls,
  });
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const { hostname } = connectOptions;
    if (isIP(hostname) !== 0) {
      const refusal = policy.refusal(hostname);
      if (refusal !== null) {
        callback(new TargetBlockedError(hostname, hostname, refusal), null);
        return;
      }
    }
    base(connectOptions, (...args) => {
      const [error, socket] = args;
      if (error !== null) {
        callback(error, null);
        return;
      }
      // Defense in depth: the address the socket actually reached.
      const remote = socket?.remoteAddress;
      const refusal = remote === undefined ? 'no remote address' : policy.refusal(remote);
      if (refusal !== null) {
        socket?.destroy();
        callback(new TargetBlockedError(hostname, remote ?? 'unknown', refusal), null);
        return;
      }
      callback(null, socket);
    });
  };
  return new Agent({
    connect,
    connections: options.connectionsPerOrigin ?? 8,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
  });
}
