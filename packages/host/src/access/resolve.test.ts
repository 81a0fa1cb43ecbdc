import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashToken, installationTokens, randomToken } from '../auth.js';
import { openStorage, type Storage } from '../storage/index.js';
import { createTokenResolver, isRefusal, type Resolution, type TokenResolver } from './resolve.js';

const OPERATOR = 'pat_operator_token_for_the_resolver';
const T0 = 1_700_000_000_000;

let dir: string;
let storage: Storage;
/** How often the resolver read storage, and the `touchToken` writes it made. */
let reads: number;
let touches: Array<{ id: string; at: number | undefined }>;
let clock: number;
let warnings: unknown[];
const tokens = installationTokens('key-of-the-test');

/** A resolver on the real SQLite storage through a wrapper that counts reads and records touches. */
function resolver(): TokenResolver {
  const real = storage.accessTokens;
  return createTokenResolver({
    storage: {
      accessTokens: {
        ...real,
        tokenByHash: (hash) => {
          reads++;
          return real.tokenByHash(hash);
        },
        sessionByHash: (hash) => {
          reads++;
          return real.sessionByHash(hash);
        },
        touchToken: async (id, at) => {
          touches.push({ id, at });
          await real.touchToken(id, at);
        },
      },
    },
    isOperator: (token) => token === OPERATOR,
    installationTokens: tokens,
    logger: { warn: (...args: unknown[]) => warnings.push(args) },
    ttlMs: 5000,
    now: () => clock,
  });
}

/** Stores an organization token of acme and answers it. */
/** Stores a portal session of organization acme made by the operator (at `now`, default T0); its token. */
async function storeSession(session: {
  id: string;
  installationId: string | null;
  expiresAt: number;
  now?: number;
}): Promise<string> {
  const token = randomToken('pps_');
  await storage.accessTokens.createSession({
    tokenHash: hashToken(token),
    organizationId: 'acme',
    createdBy: 'operator',
    ...session,
    now: session.now ?? T0,
  });
  return token;
}

async function storeToken(
  overrides: { expiresAt?: number | null; scopes?: string[]; id?: string } = {},
): Promise<{ token: string; id: string }> {
  const token = randomToken('pot_');
  const id = overrides.id ?? `tok_${Math.random().toString(36).slice(2)}`;
  await storage.accessTokens.createToken({
    id,
    organizationId: 'acme',
    name: 'ci',
    tokenHash: hashToken(token),
    scopes: overrides.scopes ?? ['deliveries:read', 'not-a-scope'],
    expiresAt: overrides.expiresAt ?? null,
    createdBy: 'operator',
    now: T0,
  });
  return { token, id };
}

function refusal(resolution: Resolution): string {
  if (!isRefusal(resolution)) throw new Error(`expected a refusal, got ${JSON.stringify(resolution)}`);
  return resolution.refused;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platform-resolve-'));
  storage = await openStorage({ sqlitePath: join(dir, 'platform.db') });
  await storage.organizations.ensure('acme');
  reads = 0;
  touches = [];
  warnings = [];
  clock = T0;
});
afterEach(async () => {
  await storage.close();
  await rm(dir, { recursive: true, force: true });
});

describe('createTokenResolver', () => {
  it('knows the operator token by computation, without reading storage', async () => {
    expect(await resolver().resolve(OPERATOR)).toEqual({ kind: 'operator' });
    expect(reads).toBe(0);
  });

  it('knows a genuine installation token, and refuses a forged one', async () => {
    const r = resolver();
    expect(await r.resolve(tokens.issue('inst_1'))).toEqual({
      kind: 'installation',
      installationId: 'inst_1',
    });
    const forged = `pit_inst_1.${'A'.repeat(43)}`;
    expect(refusal(await r.resolve(forged))).toBe('The bearer token is not valid for this host.');
    expect(refusal(await r.resolve(installationTokens('another key').issue('inst_1')))).toBe(
      'The bearer token is not valid for this host.',
    );
    expect(reads).toBe(0);
  });

  it('refuses an unknown prefix without reading storage', async () => {
    const r = resolver();
    for (const token of ['pat_other_operator', 'xyz_abc', 'pot', '', 'whsec_abc']) {
      expect(refusal(await r.resolve(token))).toBe('The bearer token is not valid for this host.');
    }
    expect(reads).toBe(0);
  });

  it('refuses an unknown organization token or portal session after one read each', async () => {
    const r = resolver();
    expect(refusal(await r.resolve(randomToken('pot_')))).toBe(
      'The bearer token is not valid for this host.',
    );
    expect(refusal(await r.resolve(randomToken('pps_')))).toBe(
      'The bearer token is not valid for this host.',
    );
    expect(reads).toBe(2);
  });

  it('resolves an organization token to its organization, name and known scopes (an unknown scope is dropped)', async () => {
    const { token, id } = await storeToken();
    expect(await resolver().resolve(token)).toEqual({
      kind: 'organization',
      organizationId: 'acme',
      tokenId: id,
      tokenName: 'ci',
      scopes: ['deliveries:read'],
    });
  });

  it('resolves a portal session of an installation', async () => {
    const token = await storeSession({ id: 'psn_1', installationId: 'inst_1', expiresAt: T0 + 60_000 });
    expect(await resolver().resolve(token)).toEqual({
      kind: 'portal',
      sessionId: 'psn_1',
      organizationId: 'acme',
      installationId: 'inst_1',
    });
    // a session is never "touched"
    expect(touches).toEqual([]);
  });

  it('refuses a revoked token and a revoked session, saying so', async () => {
    const { token, id } = await storeToken();
    await storage.accessTokens.revokeToken(id, T0);
    const session = await storeSession({ id: 'psn_2', installationId: null, expiresAt: T0 + 60_000 });
    await storage.accessTokens.revokeSession('psn_2', T0);
    const r = resolver();
    expect(refusal(await r.resolve(token))).toBe(
      'This organization token was revoked; create a new one (platform tokens create).',
    );
    expect(refusal(await r.resolve(session))).toBe(
      'This portal session was revoked; ask for a new portal link.',
    );
  });

  it('checks expiry at every use, even while the token is cached (injected clock)', async () => {
    const expiresAt = T0 + 2000;
    const { token } = await storeToken({ expiresAt });
    const r = resolver();
    expect(isRefusal(await r.resolve(token))).toBe(false);
    clock = expiresAt - 1;
    expect(isRefusal(await r.resolve(token))).toBe(false);
    clock = expiresAt;
    expect(refusal(await r.resolve(token))).toBe(
      `This organization token expired at ${new Date(expiresAt).toISOString()}; create a new one (platform tokens create).`,
    );
    // all within the cache's 5 s: one read
    expect(reads).toBe(1);
  });

  it('refuses an expired portal session', async () => {
    const token = await storeSession({
      id: 'psn_3',
      installationId: null,
      expiresAt: T0 - 1,
      now: T0 - 60_000,
    });
    expect(refusal(await resolver().resolve(token))).toBe(
      `This portal session expired at ${new Date(T0 - 1).toISOString()}; ask for a new portal link.`,
    );
  });

  it('reads storage once within the TTL, and again after it', async () => {
    const { token } = await storeToken();
    const r = resolver();
    await r.resolve(token);
    clock += 4999;
    await r.resolve(token);
    expect(reads).toBe(1);
    clock += 1;
    await r.resolve(token);
    expect(reads).toBe(2);
  });

  it('keeps a revocation made elsewhere unseen within the TTL, and `forget` applies it at once', async () => {
    const { token, id } = await storeToken();
    const r = resolver();
    expect(isRefusal(await r.resolve(token))).toBe(false);
    await storage.accessTokens.revokeToken(id, clock);
    // another host revoked it: this one still knows the token for up to 5 s
    expect(isRefusal(await r.resolve(token))).toBe(false);
    r.forget(hashToken(token));
    expect(refusal(await r.resolve(token))).toMatch(/was revoked/);
    expect(reads).toBe(2);
  });

  it('`clear` drops every cached entry', async () => {
    const { token } = await storeToken();
    const r = resolver();
    await r.resolve(token);
    r.clear();
    await r.resolve(token);
    expect(reads).toBe(2);
  });

  it('writes when a token was last used at most once a minute, across cache reloads', async () => {
    const { token, id } = await storeToken();
    const r = resolver();
    await r.resolve(token);
    expect(touches).toEqual([{ id, at: T0 }]);
    for (const step of [1000, 10_000, 30_000, 18_999]) {
      clock += step; // the cache reloads on the way (TTL 5 s): what it knew of the last use stays
      await r.resolve(token);
    }
    expect(clock - T0).toBe(59_999);
    expect(touches).toHaveLength(1);
    clock = T0 + 60_000;
    await r.resolve(token);
    expect(touches).toEqual([
      { id, at: T0 },
      { id, at: T0 + 60_000 },
    ]);
    await expect.poll(async () => (await storage.accessTokens.getToken(id))?.lastUsedAt).toBe(T0 + 60_000);
    expect(warnings).toEqual([]);
  });

  it('logs, and still answers, when the last use cannot be written', async () => {
    const { token } = await storeToken();
    const r = createTokenResolver({
      storage: {
        accessTokens: { ...storage.accessTokens, touchToken: () => Promise.reject(new Error('disk full')) },
      },
      isOperator: () => false,
      installationTokens: tokens,
      logger: { warn: (...args: unknown[]) => warnings.push(args) },
      now: () => clock,
    });
    expect(isRefusal(await r.resolve(token))).toBe(false);
    await expect.poll(() => warnings.length).toBe(1);
    expect(JSON.stringify(warnings[0])).toContain('could not record when a token was last used');
  });
});
