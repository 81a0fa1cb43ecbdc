import { isIP } from 'node:net';
import type { AddressPolicy } from './policy.js';

/** Result of {@link validateWebhookUrl}. */
export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/**
 * Checks a subscriber's webhook URL before it is stored: absolute, `https:` (`http:` only when
 * the policy allows private targets), no credentials, and a literal IP or a `localhost` name
 * refused early when the policy would refuse it at connection time anyway. Names are NOT
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
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
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
  }
  return { ok: true, url: parsed };
}
