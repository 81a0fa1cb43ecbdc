import { expect, it } from 'vitest';
import { isStorageError } from '../errors.js';
import { migrations } from '../schema.js';
import { type Ctx, installationInput } from './fixtures.js';

const DAY = 24 * 3600_000;

export function miscContract(ctx: () => Ctx): void {
  it('refuses the storage used inside its own transaction (checked by default), and keeps nothing of it', async () => {
    const { storage } = ctx();
    const misuse = await storage
      .transaction(async (tx) => {
        await tx.installations.create(installationInput({ spaceId: 'space_misuse' }));
        // After an await, still inside the callback: the outer handle instead of `tx`.
        await storage.installations.list();
      })
      .catch((error: unknown) => error);
    expect(isStorageError(misuse, 'invalid')).toBe(true);
    expect((misuse as Error).message).toContain('use the `tx` handle, not `storage`');
    expect((await storage.installations.list()).filter((i) => i.spaceId === 'space_misuse')).toEqual([]);
    // Outside the callback the storage works on, also while another caller's transaction is open.
    let release!: () => void;
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const held = storage.transaction(
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
          opened();
        }),
    );
    await open;
    const outside = storage.installations.list();
    release();
    await held;
    expect(Array.isArray(await outside)).toBe(true);
  });

  it('webhook secrets: set, rotate with overlap, previous expires', async () => {
    const { storage } = ctx();
    const inst = await storage.installations.create(installationInput());
    expect(await storage.webhookSecrets.active(inst.id, 0)).toEqual([]);
    const rotateMissing = await storage.webhookSecrets.rotate(inst.id, 'whsec_x', DAY, 0).catch((e) => e);
    expect(isStorageError(rotateMissing, 'not_found')).toBe(true);
    const setMissing = await storage.webhookSecrets.set('inst_missing', 'whsec_x').catch((e) => e);
    expect(isStorageError(setMissing, 'not_found')).toBe(true);

    await storage.webhookSecrets.set(inst.id, 'whsec_a');
    expect(await storage.webhookSecrets.active(inst.id, 0)).toEqual(['whsec_a']);
    const t0 = 1_700_000_000_000;
    await storage.webhookSecrets.rotate(inst.id, 'whsec_b', DAY, t0);
    expect(await storage.webhookSecrets.active(inst.id, t0 + DAY - 1)).toEqual(['whsec_b', 'whsec_a']);
    expect(await storage.webhookSecrets.active(inst.id, t0 + DAY)).toEqual(['whsec_b']);
    await storage.webhookSecrets.rotate(inst.id, 'whsec_c', DAY, t0 + 10);
    expect(await storage.webhookSecrets.active(inst.id, t0 + 20)).toEqual(['whsec_c', 'whsec_b']);
    await storage.webhookSecrets.set(inst.id, 'whsec_d');
    expect(await storage.webhookSecrets.active(inst.id, t0 + 20)).toEqual(['whsec_d']);
  });

  it("deliveryTarget reads an installation's configuration with its valid secrets in one go", async () => {
    const { storage } = ctx();
    const inst = await storage.installations.create(
      installationInput({ configuration: { url: 'https://example.com/hook', events: ['site_view'] } }),
    );
    expect(await storage.webhookSecrets.deliveryTarget('inst_missing', 0)).toBeNull();
    // No secret yet: the target, with none, at the routing epoch of the read.
    const epoch0 = (await storage.installations.routes({ spaceId: 'space_1' })).epoch!;
    expect(await storage.webhookSecrets.deliveryTarget(inst.id, 0)).toEqual({
      configuration: { url: 'https://example.com/hook', events: ['site_view'] },
      secrets: [],
      validUntil: null,
      epoch: epoch0,
      signingKeys: [],
      credentials: null,
    });
    const t0 = 1_700_000_000_000;
    await storage.webhookSecrets.set(inst.id, 'whsec_a');
    await storage.webhookSecrets.rotate(inst.id, 'whsec_b', DAY, t0);
    const rotated = await storage.webhookSecrets.deliveryTarget(inst.id, t0 + DAY - 1);
    // Valid until the previous secret expires; every change moved the epoch on.
    expect(rotated).toMatchObject({ secrets: ['whsec_b', 'whsec_a'], validUntil: t0 + DAY });
    expect(rotated!.epoch).toBeGreaterThan(epoch0);
    expect(await storage.webhookSecrets.deliveryTarget(inst.id, t0 + DAY)).toMatchObject({
      secrets: ['whsec_b'],
      validUntil: null,
    });
    // What the configuration says now, after an edit.
    await storage.installations.update(inst.id, { configuration: { url: 'https://example.com/v2' } });
    const edited = await storage.webhookSecrets.deliveryTarget(inst.id, t0);
    expect(edited?.configuration).toEqual({ url: 'https://example.com/v2' });
    expect(edited!.epoch).toBeGreaterThan(rotated!.epoch);
  });

  it('webhookSigningKeys keeps the first key pair of an installation; deliveryTarget reads its private key', async () => {
    const { storage } = ctx();
    const inst = await storage.installations.create(installationInput());
    expect(await storage.webhookSigningKeys.publicKey(inst.id)).toBeNull();
    const before = (await storage.webhookSecrets.deliveryTarget(inst.id, 0))!.epoch;
    const first = { privateKey: 'whsk_first', publicKey: 'whpk_first' };
    expect(await storage.webhookSigningKeys.ensure(inst.id, first, 1_000)).toEqual({
      publicKey: 'whpk_first',
      createdAt: 1_000,
    });
    // A second pair does not replace the first: receivers hold its public key.
    const again = await storage.webhookSigningKeys.ensure(
      inst.id,
      { privateKey: 'whsk_2', publicKey: 'whpk_2' },
      2_000,
    );
    expect(again).toEqual({ publicKey: 'whpk_first', createdAt: 1_000 });
    const target = await storage.webhookSecrets.deliveryTarget(inst.id, 0);
    expect(target?.signingKeys).toEqual(['whsk_first']);
    expect(target!.epoch).toBeGreaterThan(before);
    // A rotation: the new pair first, the previous one until it expires; the target's list holds until then.
    const t0 = 1_700_000_000_000;
    await storage.webhookSigningKeys.rotate(
      inst.id,
      { privateKey: 'whsk_next', publicKey: 'whpk_next' },
      DAY,
      t0,
    );
    expect(await storage.webhookSigningKeys.publicKey(inst.id, t0 + 1)).toEqual({
      publicKey: 'whpk_next',
      createdAt: t0,
      previous: { publicKey: 'whpk_first', expiresAt: t0 + DAY },
    });
    expect(await storage.webhookSecrets.deliveryTarget(inst.id, t0 + 1)).toMatchObject({
      signingKeys: ['whsk_next', 'whsk_first'],
      validUntil: t0 + DAY,
    });
    expect(await storage.webhookSecrets.deliveryTarget(inst.id, t0 + DAY)).toMatchObject({
      signingKeys: ['whsk_next'],
      validUntil: null,
    });
    expect((await storage.webhookSigningKeys.publicKey(inst.id, t0 + DAY))?.previous).toBeUndefined();
    const none = await storage.installations.create(installationInput());
    await expect(
      storage.webhookSigningKeys.rotate(none.id, { privateKey: 'whsk_x', publicKey: 'whpk_x' }, DAY, t0),
    ).rejects.toMatchObject({ code: 'not_found' });
    // Gone with its installation.
    await storage.installations.delete(inst.id);
    expect(await storage.webhookSigningKeys.publicKey(inst.id)).toBeNull();
  });

  it("webhookCredentials: the endpoint's write-only values, read with the target, gone with the installation", async () => {
    const { storage } = ctx();
    const inst = await storage.installations.create(
      installationInput({ configuration: { url: 'https://example.com/hook' } }),
    );
    expect(await storage.webhookCredentials.get(inst.id)).toBeNull();
    await storage.transaction(async (tx) => {
      await tx.installations.update(inst.id, {
        configuration: { url: 'https://example.com/hook', auth: { type: 'bearer', token: '********' } },
      });
      await tx.webhookCredentials.set(inst.id, { headers: { 'X-K': 'k1' }, auth: 't1' });
    });
    expect(await storage.webhookCredentials.get(inst.id)).toEqual({ headers: { 'X-K': 'k1' }, auth: 't1' });
    expect((await storage.webhookSecrets.deliveryTarget(inst.id, 0))?.credentials).toEqual({
      headers: { 'X-K': 'k1' },
      auth: 't1',
    });
    await storage.webhookCredentials.set(inst.id, { auth: 't2' });
    expect(await storage.webhookCredentials.get(inst.id)).toEqual({ auth: 't2' });
    await storage.webhookCredentials.set(inst.id, null);
    expect(await storage.webhookCredentials.get(inst.id)).toBeNull();
    await storage.webhookCredentials.set(inst.id, { auth: 't3' });
    await storage.installations.delete(inst.id);
    expect(await storage.webhookCredentials.get(inst.id)).toBeNull();
  });

  it('claim and claimHeld return the routing epoch they read: a change committed before a claim is in it', async () => {
    const { storage } = ctx();
    const inst = await storage.installations.create(installationInput());
    const epochNow = async () => (await storage.webhookSecrets.deliveryTarget(inst.id, 0))!.epoch;
    const claim = () => storage.jobs.claim({ kinds: ['deliver'], limit: 5, leaseMs: 1_000, now: 10_000 });
    const held = () =>
      storage.jobs.claimHeld({ installationId: inst.id, limit: 5, leaseMs: 1_000, now: 10_000 });
    const enqueue = (hold: boolean) =>
      storage.jobs.enqueue([{ kind: 'deliver', installationId: inst.id, payload: {}, hold }], 100);

    await enqueue(false);
    await enqueue(true);
    const before = await epochNow();
    const first = await claim();
    expect(first).toHaveLength(1);
    expect(first.routingEpoch).toBe(before);
    expect((await held()).routingEpoch).toBe(before);
    // An edit, then a rotation: each claim after them reads the epoch they moved on to.
    await storage.installations.update(inst.id, { configuration: { url: 'https://example.com/v2' } });
    await enqueue(false);
    const afterEdit = await claim();
    expect(afterEdit.routingEpoch).toBe(await epochNow());
    expect(afterEdit.routingEpoch).toBeGreaterThan(before);
    await storage.webhookSecrets.set(inst.id, 'whsec_new');
    await enqueue(true);
    const afterRotation = await held();
    expect(afterRotation).toHaveLength(1);
    expect(afterRotation.routingEpoch).toBe(await epochNow());
    expect(afterRotation.routingEpoch).toBeGreaterThan(afterEdit.routingEpoch!);
    // Nothing taken, no epoch; the result still compares as the plain list of jobs.
    const none = await claim();
    expect(none.routingEpoch).toBeNull();
    expect(none).toEqual([]);
    expect((await held()).routingEpoch).toBeNull();
  });

  it('invocation logs: insert and list newest first with limit and since', async () => {
    const { storage } = ctx();
    const base = { installationId: 'inst_1', integrationName: 'hello', eventType: 'fetch', eventId: null };
    const a = await storage.invocationLogs.insert({
      ...base,
      status: 200,
      durationMs: 13,
      lines: [{ level: 'info', message: 'hi', time: 5 }],
      createdAt: 100,
    });
    const b = await storage.invocationLogs.insert({
      ...base,
      eventId: 'evt_1',
      status: 'error',
      durationMs: 3,
      lines: [],
      createdAt: 200,
    });
    await storage.invocationLogs.insert({
      ...base,
      installationId: 'inst_2',
      status: 500,
      durationMs: 1,
      lines: [],
    });
    expect(a.id).toMatch(/^log_/);
    const listed = await storage.invocationLogs.list('inst_1');
    expect(listed).toEqual([b, { ...a, durationMs: 13 }]);
    expect(listed[1]?.status).toBe(200);
    expect(await storage.invocationLogs.list('inst_1', { limit: 1 })).toEqual([b]);
    expect(await storage.invocationLogs.list('inst_1', { since: 150 })).toEqual([b]);
  });

  it('settings: get, set, setIfAbsent, delete', async () => {
    const { storage } = ctx();
    expect(await storage.settings.get('admin_token_hash')).toBeNull();
    expect(await storage.settings.setIfAbsent('admin_token_hash', 'h1')).toBe('h1');
    expect(await storage.settings.setIfAbsent('admin_token_hash', 'h2')).toBe('h1');
    await storage.settings.set('admin_token_hash', 'h3');
    expect(await storage.settings.get('admin_token_hash')).toBe('h3');
    expect(await storage.settings.delete('admin_token_hash')).toBe(true);
    expect(await storage.settings.delete('admin_token_hash')).toBe(false);
    expect(await storage.settings.get('admin_token_hash')).toBeNull();
  });

  it('settings: takeTurn gives one turn per gap, to one of two hosts asking at once', async () => {
    const { storage } = ctx();
    const [a, b] = await Promise.all([
      storage.settings.takeTurn('stats_rollup_turn', 1_000, 30_000),
      storage.settings.takeTurn('stats_rollup_turn', 1_000, 30_000),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(await storage.settings.takeTurn('stats_rollup_turn', 20_000, 30_000)).toBe(false);
    expect(await storage.settings.get('stats_rollup_turn')).toBe('1000');
    expect(await storage.settings.takeTurn('stats_rollup_turn', 31_000, 30_000)).toBe(true);
    expect(await storage.settings.get('stats_rollup_turn')).toBe('31000');
  });

  it('migrations apply once: reopening (also two at once) applies nothing and keeps the data', async () => {
    const { storage, db } = ctx();
    expect(storage.appliedMigrations).toEqual(migrations.map((m) => m.version));
    await storage.settings.set('kept', 'yes');
    const [again, third] = await Promise.all([db.open(), db.open()]);
    expect(again.appliedMigrations).toEqual([]);
    expect(third.appliedMigrations).toEqual([]);
    expect(await again.settings.get('kept')).toBe('yes');
  });
}
