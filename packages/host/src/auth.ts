import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 hex of a token: what is compared, so lengths never leak and plaintext is never kept. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time equality of two strings (compared through their SHA-256). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(hashToken(a), 'hex'), Buffer.from(hashToken(b), 'hex'));
}

/**
 * A constant-time check against one fixed token, whose hash is computed once (the operator token is
 * checked on every request).
 *
 * @example
 * const isAdmin = tokenMatcher(adminToken);
 * isAdmin(givenToken); // true or false, in time independent of where they differ
 */
export function tokenMatcher(expected: string): (given: string) => boolean {
  const expectedHash = Buffer.from(hashToken(expected), 'hex');
  return (given) => timingSafeEqual(Buffer.from(hashToken(given), 'hex'), expectedHash);
}

/**
 * The token of an `Authorization: Bearer <token>` header, or null when the header is absent or not that.
 *
 * @example
 * bearerToken('Bearer pat_abc'); // 'pat_abc'
 */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match ? (match[1] as string) : null;
}

/** A new random secret, base64url, `bytes` long before encoding. */
export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/**
 * Installation API tokens: `pit_<installationId>.<mac>` where mac = HMAC-SHA256(key, installationId).
 * They are derived, never stored: the host re-derives one for every envelope and checks one by
 * recomputing the MAC, so a token proves which installation it was issued for (its only scope).
 *
 * @example
 * const tokens = installationTokens(key);
 * const token = tokens.issue('inst_abc');
 * tokens.verify(token); // 'inst_abc'
 */
export function installationTokens(key: string) {
  const mac = (id: string) => createHmac('sha256', key).update(`installation:${id}`).digest('base64url');
  return {
    issue(installationId: string): string {
      return `pit_${installationId}.${mac(installationId)}`;
    },
    /** Returns the installation id the token was issued for, or null when it is not genuine. */
    verify(token: string): string | null {
      const match = /^pit_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
      if (!match) return null;
      const [, id, given] = match as unknown as [string, string, string];
      return safeEqual(given, mac(id)) ? id : null;
    },
  };
}
