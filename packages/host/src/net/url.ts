import { isIP } from 'node:net';
import type { AddressPolicy } from './policy.js';

/** Suffixes of names that only a local network (or the machine itself) resolves. */
const LOCAL_SUFFIXES = ['.local', '.internal', '.localdomain', '.lan', '.home.arpa', '.intranet', '.corp'];

/**
 * A URL's host name as the address checks compare it: brackets of an IPv6 literal removed, lowercase,
 * and without the trailing dot(s) of a fully qualified name (`LOCALHOST.` is `localhost`). IPv4 forms
 * (decimal, octal, hex) are already made dotted-decimal by the URL parser.
 *
 * @example
 * normalizeHostname(new URL('https://VM./').hostname); // 'vm'
 */
export function normalizeHostname(hostname: string): string {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return bare.toLowerCase().replace(/\.+$/, '');
}

/**
 * A name under a suffix only a local network resolves (`metadata.google.internal`, `printer.local`).
 * One-label names (`vm`) are left to the connection-time check, which sees what they resolve to.
 */
function isLocalNetworkName(host: string): boolean {
  return LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/** Result of {@link validateWebhookUrl}. */
export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/**
 * Checks a subscriber's webhook URL before it is stored: absolute, `https:` (`http:` only when
 * the policy allows private targets), no credentials, and a literal IP, a `localhost` name or (when
 * every private target is blocked) a name under a local network suffix (`.internal`, `.local`, ...)
 * refused early, after {@link normalizeHostname} (`LOCALHOST.` is `localhost`). Names are NOT
 * resolved here: the guarded dispatcher checks resolved addresses when it connects.
 *
 * @example
 * const check = validateWebhookUrl('https://hooks.example.com/in', policy);
 * if (!check.ok) throw new ValidationError(check.message);
 */
export function validateWebhookUrl(url: string, policy: AddressPolicy): WebhookUrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {
      ok: false,
      message: 'The webhook URL is not a valid absolute URL (expected https://host/path).',
    };
  }
  if (parsed.protocol === 'http:' && !policy.allowsPrivate) {
    return {
      ok: false,
      message:
        'The webhook URL must use https:. Plain http: is accepted only when the operator allows private ' +
        'targets (PLATFORM_ALLOW_PRIVATE_TARGETS).',
    };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return { ok: false, message: `The webhook URL must use https:, not ${parsed.protocol}` };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return {
      ok: false,
      message: 'The webhook URL must not contain credentials (user:password@). Verify the signature instead.',
    };
  }
  const host = normalizeHostname(parsed.hostname);
  if (isIP(host) !== 0) {
    const refusal = policy.refusal(host);
    if (refusal !== null) {
      return {
        ok: false,
        message: `The webhook URL targets ${host} (${refusal}), which the address policy refuses.`,
      };
    }
  } else if (host === 'localhost' || host.endsWith('.localhost')) {
    if (!policy.allows('127.0.0.1') || !policy.allows('::1')) {
      return {
        ok: false,
        message: `The webhook URL targets ${host} (loopback), which the address policy refuses.`,
      };
    }
  } else if (policy.mode === 'block' && isLocalNetworkName(host)) {
    return {
      ok: false,
      message: `The webhook URL targets ${host}, a name only a local network resolves, which the address policy refuses; use a public name.`,
    };
  }
  return { ok: true, url: parsed };
}
