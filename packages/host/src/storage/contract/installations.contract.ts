import { expect, it } from 'vitest';
import { isStorageError } from '../errors.js';
import { type Ctx, installationInput, integrationInput } from './fixtures.js';

export function installationsContract(ctx: () => Ctx): void {
  it('creates an installation with defaults and finds it by id and token hash', async () => {
    const { storage } = ctx();
    const created = await storage.installations.create({
      integrationName: 'hello',
      target: 'organization',
      organizationId: 'org_1',
      tokenHash: 'h1',
      now: 1_700_000_000_000,
    });
    expect(created.id).toMatch(/^inst_[A-Za-z0-9_-]{22}$/);
    expect(created).toMatchObject({
      status: 'pending',
      configuration: {},
      externalIds: [],
      spaceSelection: { mode: 'selected', spaces: [] },
      spaceId: null,
      siteId: null,
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_000,
    });
    expect(await storage.installations.get(created.id)).toEqual(created);
    expect(await storage.installations.getByTokenHash('h1')).toEqual(created);
    expect(await storage.installations.getByTokenHash('other')).toBeNull();
    expect(await storage.installations.get('inst_missing')).toBeNull();
    const duplicate = await storage.installations
      .create(installationInput({ tokenHash: 'h1' }))
      .catch((e) => e);
    expect(isStorageError(duplicate, 'conflict')).toBe(true);
  });

  it('updates only the patched fields and returns the new record', async () => {
    const { storage } = ctx();
    const inst = await storage.installations.create(
      installationInput({ configuration: { a: 1 }, now: 1000 }),
    );
    const updated = await storage.installations.update(
      inst.id,
      { configuration: { a: 2, nested: { b: [true] } }, status: 'paused', externalIds: ['x'] },
      2000,
    );
    expect(updated).toEqual({
      ...inst,
      configuration: { a: 2, nested: { b: [true] } },
      status: 'paused',
      externalIds: ['x'],
      updatedAt: 2000,
    });
    expect(await storage.installations.get(inst.id)).toEqual(updated);
    const missing = await storage.installations.update('inst_missing', { status: 'active' }).catch((e) => e);
    expect(isStorageError(missing, 'not_found')).toBe(true);
  });

  it('lists with filters', async () => {
    const { storage } = ctx();
    const a = await storage.installations.create(installationInput({ spaceId: 's1', now: 1 }));
    const b = await storage.installations.create(installationInput({ spaceId: 's2', now: 2 }));
    const c = await storage.installations.create(
      installationInput({
        integrationName: 'webhook',
        target: 'site',
        spaceId: null,
        siteId: 'site1',
        now: 3,
      }),
    );
    expect((await storage.installations.list()).map((i) => i.id)).toEqual([a.id, b.id, c.id]);
    expect((await storage.installations.list({ spaceId: 's2' })).map((i) => i.id)).toEqual([b.id]);
    expect((await storage.installations.list({ integrationName: 'webhook' })).map((i) => i.id)).toEqual([
      c.id,
    ]);
    expect((await storage.installations.list({ siteId: 'site1', integrationName: 'hello' })).length).toBe(0);
  });

  it('delete removes the installation and its secrets and cancels its pending jobs in one go', async () => {
    const { storage } = ctx();
    const inst = await storage.installations.create(installationInput());
    const other = await storage.installations.create(installationInput());
    await storage.webhookSecrets.set(inst.id, 'whsec_a');
    const [queued, done, otherJob] = await storage.jobs.enqueue([
      { kind: 'deliver', installationId: inst.id, payload: {} },
      { kind: 'deliver', installationId: inst.id, payload: {}, runAt: 0 },
      { kind: 'deliver', installationId: other.id, payload: {} },
    ]);
    const [claimed] = await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 1000, now: 1 });
    expect(claimed?.id).toBe(done?.id);
    await storage.jobs.complete(claimed!, 'succeeded', 2);

    expect(await storage.installations.delete(inst.id, 5)).toBe(true);
    expect(await storage.installations.get(inst.id)).toBeNull();
    expect(await storage.webhookSecrets.active(inst.id, 0)).toEqual([]);
    expect((await storage.jobs.getJob(queued!.id))?.state).toBe('cancelled');
    expect((await storage.jobs.getJob(queued!.id))?.finishedAt).toBe(5);
    expect((await storage.jobs.getJob(done!.id))?.state).toBe('succeeded');
    expect((await storage.jobs.getJob(otherJob!.id))?.state).toBe('queued');
    expect(await storage.installations.delete(inst.id)).toBe(false);
  });

  it('matching() returns the active installations an event reaches', async () => {
    const { storage } = ctx();
    const create = (o: Parameters<typeof installationInput>[0]) =>
      storage.installations.create(installationInput(o));
    const space = await create({ spaceId: 'sp1', now: 1 });
    await create({ spaceId: 'sp1', status: 'paused', now: 2 });
    await create({ spaceId: 'sp1', status: 'pending', now: 3 });
    await create({ spaceId: 'sp2', now: 4 });
    const orgAll = await create({
      target: 'organization',
      spaceId: null,
      organizationId: 'org1',
      spaceSelection: { mode: 'all', spaces: [] },
      now: 5,
    });
    const orgSome = await create({
      target: 'organization',
      spaceId: null,
      organizationId: 'org1',
      spaceSelection: { mode: 'selected', spaces: ['sp1'] },
      now: 6,
    });
    await create({
      target: 'organization',
      spaceId: null,
      organizationId: 'org2',
      spaceSelection: { mode: 'selected', spaces: ['sp2'] },
      now: 7,
    });
    const site = await create({
      integrationName: 'webhook',
      target: 'site',
      spaceId: null,
      siteId: 'st1',
      now: 8,
    });
    await create({ integrationName: 'webhook', target: 'site', spaceId: null, siteId: 'st2', now: 9 });

    const ids = async (scope: Parameters<typeof storage.installations.matching>[0]) =>
      (await storage.installations.matching(scope)).map((i) => i.id);
    expect(await ids({ spaceId: 'sp1' })).toEqual([space.id, orgAll.id, orgSome.id]);
    expect(await ids({ spaceId: 'sp1', organizationId: 'org1' })).toEqual([space.id, orgAll.id, orgSome.id]);
    expect(await ids({ spaceId: 'sp1', organizationId: 'org2' })).toEqual([space.id]);
    expect(await ids({ siteId: 'st1' })).toEqual([site.id]);
    expect(await ids({ siteId: 'st1', integrationName: 'hello' })).toEqual([]);
    expect(await ids({ organizationId: 'org1' })).toEqual([orgAll.id, orgSome.id]);
    expect(await ids({})).toEqual([]);
    await storage.installations.update(orgAll.id, { status: 'paused' });
    expect(await ids({ spaceId: 'sp3' })).toEqual([]);
  });

  it("routes() is matching() with each installation's latest integration version, in one read", async () => {
    const { storage } = ctx();
    await storage.integrations.publish(integrationInput({ name: 'hello', version: '1.0.0' }));
    await storage.integrations.publish(
      integrationInput({
        name: 'hello',
        version: '1.1.0',
        title: 'Hello 1.1',
        manifest: { name: 'hello', v: 2 },
      }),
    );
    await storage.integrations.publish(integrationInput({ name: 'other', version: '3.0.0', title: 'Other' }));
    const create = (o: Parameters<typeof installationInput>[0]) =>
      storage.installations.create(installationInput(o));
    const hello = await create({ integrationName: 'hello', spaceId: 'sp1', now: 1 });
    await create({ integrationName: 'hello', spaceId: 'sp1', status: 'paused', now: 2 });
    // no version of 'ghost' is stored: nothing to route to
    await create({ integrationName: 'ghost', spaceId: 'sp1', now: 3 });
    const org = await create({
      integrationName: 'other',
      target: 'organization',
      spaceId: null,
      organizationId: 'org1',
      spaceSelection: { mode: 'selected', spaces: ['sp1'] },
      now: 4,
    });
    await create({ integrationName: 'other', spaceId: 'sp2', now: 5 });

    const { routes } = await storage.installations.routes({ spaceId: 'sp1' });
    expect(routes.map((r) => [r.installation.id, r.integration.name, r.integration.version])).toEqual([
      [hello.id, 'hello', '1.1.0'],
      [org.id, 'other', '3.0.0'],
    ]);
    expect(routes[0]?.installation).toEqual(await storage.installations.get(hello.id));
    expect(routes[0]?.integration).toMatchObject({ title: 'Hello 1.1', manifest: { name: 'hello', v: 2 } });
    // the same installations as matching(), less the one without an integration version
    expect((await storage.installations.matching({ spaceId: 'sp1' })).map((i) => i.id)).toHaveLength(3);
    expect((await storage.installations.routes({ spaceId: 'sp3' })).routes).toEqual([]);
    expect(await storage.installations.routes({})).toEqual({ epoch: null, routes: [] });
  });
}
