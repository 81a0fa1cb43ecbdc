import type { Logger } from 'pino';
import { hashToken } from '../auth.js';
import type { Storage } from '../storage/index.js';
import { isScope, type Principal } from './principal.js';

/** A presented token that names no principal: why, in words for the caller (401). */
export interface Refusal {
  refused: string;
}

/** What the resolver answers: the principal, or why the token is refused. */
export type Resolution = Principal | Refusal;

/** Whether a resolution is a refusal. @example if (isRefusal(r)) throw unauthorized(r.refused); */
export function isRefusal(resolution: Resolution): resolution is Refusal {
  return 'refused' in resolution;
}

/** How the host turns a bearer token into a principal (`createTokenResolver`). */
export interface TokenResolver {
  resolve(token: string): Promise<Resolution>;
  /** Drops what the cache holds for a stored token or session (after a revocation on this host). */
  forget(tokenHash: string): void;
  /** Drops the whole cache. */
  clear(): void;
}

interface Cached {
  principal: Principal | null;
  /** A stored credential's own limits, checked at every use even while cached. */
  expiresAt: number | null;
  revoked: boolean;
  what: 'organization token' | 'portal session';
  tokenId: string;
  lastUsedAt: number | null;
  until: number;
}

const NOT_VALID = 'The bearer token is not valid for this host.';
/** `last_used_at` of an organization token is written at most once a minute. */
const TOUCH_EVERY_MS = 60_000;
const MAX_ENTRIES = 10_000;
/** What to do about a revoked or expired credential, by what it is. */
const RENEW: Record<Cached['what'], string> = {
  'organization token': 'create a new one (platform tokens create)',
  'portal session': 'ask for a new portal link',
};

/**
 * Resolves bearer tokens: the operator token and installation tokens by computation, organization tokens
 * (`pot_…`) and portal sessions (`pps_…`) by the SHA-256 of the token, read from storage and kept
 * `ttlMs` in memory (a revocation through this host applies at once: `forget`; through another host
 * within `ttlMs`). Expiry is checked at every use.
 *
 * @example
 * const resolver = createTokenResolver({ storage, isOperator, installationTokens: ctx.tokens, logger });
 * const who = await resolver.resolve('pot_…'); // { kind: 'organization', ... } or { refused: '…' }
 */
export function createTokenResolver(deps: {
  storage: Pick<Storage, 'accessTokens'>;
  isOperator(token: string): boolean;
  installationTokens: { verify(token: string): string | null };
  logger: Pick<Logger, 'warn'>;
  ttlMs?: number;
  now?: () => number;
}): TokenResolver {
  const ttlMs = deps.ttlMs ?? 5000;
  const now = deps.now ?? Date.now;
  const cache = new Map<string, Cached>();

  /** What the cache keeps of a stored credential, fresh for `ttlMs`. */
  function cached(
    what: Cached['what'],
    principal: Principal,
    stored: { id: string; expiresAt: number | null; revokedAt: number | null; lastUsedAt?: number | null },
  ): Cached {
    return {
      principal,
      expiresAt: stored.expiresAt,
      revoked: stored.revokedAt !== null,
      what,
      tokenId: stored.id,
      lastUsedAt: stored.lastUsedAt ?? null,
      until: now() + ttlMs,
    };
  }

  async function load(hash: string, kind: 'pot' | 'pps'): Promise<Cached | null> {
    if (kind === 'pot') {
      const token = await deps.storage.accessTokens.tokenByHash(hash);
      if (!token) return null;
      const { organizationId, id: tokenId, name: tokenName } = token;
      const scopes = token.scopes.filter(isScope);
      return cached(
        'organization token',
        { kind: 'organization', organizationId, tokenId, tokenName, scopes },
        token,
      );
    }
    const session = await deps.storage.accessTokens.sessionByHash(hash);
    if (!session) return null;
    const { id: sessionId, organizationId, installationId } = session;
    return cached('portal session', { kind: 'portal', sessionId, organizationId, installationId }, session);
  }

  function touch(entry: Cached, at: number): void {
    if (entry.what !== 'organization token') return;
    if (entry.lastUsedAt !== null && at - entry.lastUsedAt < TOUCH_EVERY_MS) return;
    entry.lastUsedAt = at;
    deps.storage.accessTokens.touchToken(entry.tokenId, at).catch((error: unknown) => {
      deps.logger.warn({ err: error, tokenId: entry.tokenId }, 'could not record when a token was last used');
    });
  }

  return {
    async resolve(token) {
      if (deps.isOperator(token)) return { kind: 'operator' };
      if (token.startsWith('pit_')) {
        const installationId = deps.installationTokens.verify(token);
        return installationId ? { kind: 'installation', installationId } : { refused: NOT_VALID };
      }
      const prefix = token.slice(0, 4);
      if (prefix !== 'pot_' && prefix !== 'pps_') return { refused: NOT_VALID };
      const hash = hashToken(token);
      const at = now();
      let entry = cache.get(hash);
      if (!entry || entry.until <= at) {
        const loaded = await load(hash, prefix === 'pot_' ? 'pot' : 'pps');
        if (!loaded) {
          cache.delete(hash);
          return { refused: NOT_VALID };
        }
        if (cache.size >= MAX_ENTRIES) cache.clear();
        // keep what this host knows of the last use across reloads
        if (entry && entry.lastUsedAt !== null && (loaded.lastUsedAt ?? 0) < entry.lastUsedAt) {
          loaded.lastUsedAt = entry.lastUsedAt;
        }
        entry = loaded;
        cache.set(hash, entry);
      }
      const renew = RENEW[entry.what];
      if (entry.revoked) return { refused: `This ${entry.what} was revoked; ${renew}.` };
      if (entry.expiresAt !== null && entry.expiresAt <= at) {
        return {
          refused: `This ${entry.what} expired at ${new Date(entry.expiresAt).toISOString()}; ${renew}.`,
        };
      }
      touch(entry, at);
      return entry.principal ?? { refused: NOT_VALID };
    },
    forget(tokenHash) {
      cache.delete(tokenHash);
    },
    clear() {
      cache.clear();
    },
  };
}
