import { expect, it } from 'vitest';
import type { Ctx } from './fixtures.js';

const T0 = 1_700_000_000_000;

/** The access tokens repository: organization tokens and portal sessions, stored hashed. */
export function accessTokensContract(ctx: () => Ctx): void {
  const token = (id: string, overrides: { organizationId?: string; expiresAt?: number | null } = {}) => ({
    id,
    organizationId: overrides.organizationId ?? 'acme',
    name: `name of ${id}`,
    tokenHash: `hash_${id}`,
    scopes: ['deliveries:read', 'audit:read'],
    expiresAt: overrides.expiresAt ?? null,
    createdBy: 'operator',
  });

  it('tokens: create, look up by hash and id, list an organization oldest first', async () => {
    const { storage } = ctx();
    await storage.organizations.ensure('acme');
    await storage.organizations.ensure('globex');
    const created = await storage.accessTokens.createToken({
      ...token('tok_b', { expiresAt: T0 + 5 }),
      now: T0 + 1,
    });
    expect(created).toEqual({
      ...token('tok_b', { expiresAt: T0 + 5 }),
      revokedAt: null,
      lastUsedAt: null,
      createdAt: T0 + 1,
    });
    await storage.accessTokens.createToken({ ...token('tok_a'), now: T0 });
    await storage.accessTokens.createToken({ ...token('tok_g', { organizationId: 'globex' }), now: T0 });
    expect(await storage.accessTokens.tokenByHash('hash_tok_b')).toEqual(created);
    expect(await storage.accessTokens.getToken('tok_b')).toEqual(created);
    expect(await storage.accessTokens.tokenByHash('hash_missing')).toBeNull();
    expect(await storage.accessTokens.getToken('tok_missing')).toBeNull();
    expect((await storage.accessTokens.listTokens('acme')).map((t) => t.id)).toEqual(['tok_a', 'tok_b']);
    expect((await storage.accessTokens.listTokens('globex')).map((t) => t.id)).toEqual(['tok_g']);
    // a token belongs to an organization that exists; a hash is unique
    await expect(
      storage.accessTokens.createToken(token('tok_x', { organizationId: 'nobody' })),
    ).rejects.toThrow();
    await expect(
      storage.accessTokens.createToken({ ...token('tok_y'), tokenHash: 'hash_tok_a' }),
    ).rejects.toThrow();
  });

  it('tokens: revoked once (the second revocation changes nothing), touched', async () => {
    const { storage } = ctx();
    await storage.organizations.ensure('acme');
    await storage.accessTokens.createToken(token('tok_1'));
    expect(await storage.accessTokens.revokeToken('tok_1', T0)).toBe(true);
    expect(await storage.accessTokens.revokeToken('tok_1', T0 + 1)).toBe(false);
    expect(await storage.accessTokens.revokeToken('tok_missing', T0)).toBe(false);
    expect((await storage.accessTokens.getToken('tok_1'))?.revokedAt).toBe(T0);
    await storage.accessTokens.touchToken('tok_1', T0 + 100);
    expect((await storage.accessTokens.tokenByHash('hash_tok_1'))?.lastUsedAt).toBe(T0 + 100);
  });

  it('sessions: create, look up, revoke once, prune only the expired ones', async () => {
    const { storage } = ctx();
    const session = (id: string, expiresAt: number, installationId: string | null) => ({
      id,
      tokenHash: `hash_${id}`,
      organizationId: installationId ? null : 'acme',
      installationId,
      expiresAt,
      createdBy: 'token:tok_1',
    });
    const created = await storage.accessTokens.createSession({
      ...session('psn_1', T0 + 1000, 'inst_1'),
      now: T0,
    });
    expect(created).toEqual({ ...session('psn_1', T0 + 1000, 'inst_1'), revokedAt: null, createdAt: T0 });
    await storage.accessTokens.createSession({ ...session('psn_2', T0 + 10, null), now: T0 });
    await storage.accessTokens.createSession({ ...session('psn_3', T0 + 500, null), now: T0 });
    expect(await storage.accessTokens.sessionByHash('hash_psn_1')).toEqual(created);
    expect(await storage.accessTokens.getSession('psn_2')).toMatchObject({
      organizationId: 'acme',
      installationId: null,
    });
    expect(await storage.accessTokens.sessionByHash('hash_missing')).toBeNull();
    expect(await storage.accessTokens.revokeSession('psn_1', T0 + 1)).toBe(true);
    expect(await storage.accessTokens.revokeSession('psn_1', T0 + 2)).toBe(false);
    expect(await storage.accessTokens.revokeSession('psn_missing')).toBe(false);
    expect((await storage.accessTokens.getSession('psn_1'))?.revokedAt).toBe(T0 + 1);
    // expired before T0 + 500: psn_2 only (psn_3 expires exactly then)
    expect(await storage.accessTokens.pruneSessions(T0 + 500)).toBe(1);
    expect(await storage.accessTokens.getSession('psn_2')).toBeNull();
    expect(await storage.accessTokens.getSession('psn_3')).not.toBeNull();
    expect(await storage.accessTokens.pruneSessions(T0 + 2000)).toBe(2);
    expect(await storage.accessTokens.pruneSessions(T0 + 2000)).toBe(0);
  });
}
