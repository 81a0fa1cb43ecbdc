import { expect, it } from 'vitest';
import { isStorageError } from '../errors.js';
import { type Ctx, installationInput, integrationInput } from './fixtures.js';

export function integrationsContract(ctx: () => Ctx): void {
  it('publishes and reads back an integration version with JSON, booleans and a numeric timestamp', async () => {
    const { storage } = ctx();
    const published = await storage.integrations.publish(
      integrationInput({ firstParty: true, createdAt: 1_700_000_000_123 }),
    );
    const read = await storage.integrations.getVersion('hello', '1.0.0');
    expect(read).toEqual(published);
    expect(read?.manifest).toEqual({
      name: 'hello',
      scopes: ['space:content:read'],
      nested: { list: [1, 2] },
    });
    expect(read?.firstParty).toBe(true);
    expect(read?.devMode).toBe(false);
    expect(read?.createdAt).toBe(1_700_000_000_123);
    expect(await storage.integrations.getVersion('hello', '9.9.9')).toBeNull();
    expect(await storage.integrations.getLatest('nope')).toBeNull();
  });

  it("stores assets once by content hash and keeps each version's map of manifest paths to them", async () => {
    const { storage } = ctx();
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const hash = await storage.assets.put({ contentType: 'image/png', data: bytes }, 1_700_000_000_000);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    // the same bytes again (another version, another type claimed): nothing new, the first row stays
    expect(await storage.assets.put({ contentType: 'image/jpeg', data: bytes })).toBe(hash);
    const asset = await storage.assets.get(hash);
    expect(asset?.contentType).toBe('image/png');
    expect(asset?.createdAt).toBe(1_700_000_000_000);
    expect(asset && [...asset.data]).toEqual([...bytes]);
    expect(await storage.assets.get('0'.repeat(64))).toBeNull();

    await storage.integrations.publish(integrationInput({ assets: { 'icon.png': hash } }));
    await storage.integrations.publish(integrationInput({ version: '1.1.0' }));
    expect((await storage.integrations.getVersion('hello', '1.0.0'))?.assets).toEqual({ 'icon.png': hash });
    expect((await storage.integrations.getLatest('hello'))?.assets).toEqual({});
    await storage.integrations.publish(
      integrationInput({ version: '1.1.0', devMode: true, assets: { 'i.png': hash } }),
    );
    expect((await storage.integrations.list())[0]?.assets).toEqual({ 'i.png': hash });
  });

  it('refuses to re-publish a version outside dev mode, replaces it in dev mode', async () => {
    const { storage } = ctx();
    await storage.integrations.publish(integrationInput());
    const error = await storage.integrations.publish(integrationInput({ bundle: 'changed' })).catch((e) => e);
    expect(isStorageError(error, 'conflict')).toBe(true);
    expect((await storage.integrations.getVersion('hello', '1.0.0'))?.bundle).toBe(
      'export default { fetch() {} };',
    );

    await storage.integrations.publish(integrationInput({ version: '1.1.0' }));
    await storage.integrations.publish(integrationInput({ bundle: 'dev build', devMode: true }));
    const latest = await storage.integrations.getLatest('hello');
    expect(latest?.version).toBe('1.0.0');
    expect(latest?.bundle).toBe('dev build');
    expect(latest?.devMode).toBe(true);
    expect((await storage.integrations.listVersions('hello')).map((r) => r.version)).toEqual([
      '1.0.0',
      '1.1.0',
    ]);
  });

  it('getLatest is the most recently published version; list gives the latest of each name', async () => {
    const { storage } = ctx();
    await storage.integrations.publish(integrationInput({ version: '1.0.0' }));
    await storage.integrations.publish(integrationInput({ version: '2.0.0' }));
    await storage.integrations.publish(
      integrationInput({ name: 'webhook', version: '0.1.0', title: 'Webhook' }),
    );
    expect((await storage.integrations.getLatest('hello'))?.version).toBe('2.0.0');
    const list = await storage.integrations.list();
    expect(list.map((r) => `${r.name}@${r.version}`)).toEqual(['hello@2.0.0', 'webhook@0.1.0']);
  });

  it("routes() reads the latest published version's metadata, without bundle and secrets", async () => {
    const { storage } = ctx();
    await storage.installations.create(installationInput({ integrationName: 'hello', spaceId: 'sp1' }));
    const meta = async () => (await storage.installations.routes({ spaceId: 'sp1' })).routes[0]?.integration;
    expect(await meta()).toBeUndefined(); // nothing published yet: nothing to route to
    await storage.integrations.publish(integrationInput({ version: '1.0.0', createdAt: 5 }));
    await storage.integrations.publish(integrationInput({ version: '0.9.0', title: 'Older', createdAt: 6 }));
    // The latest publish, not the highest version.
    expect(await meta()).toEqual({
      name: 'hello',
      version: '0.9.0',
      title: 'Older',
      manifest: integrationInput().manifest,
      firstParty: false,
      devMode: false,
      createdAt: 6,
    });
    // The parsed manifest is shared between readers: frozen, so no reader can change another's.
    const first = await meta();
    expect(Object.isFrozen(first?.manifest)).toBe(true);
    expect((await meta())?.manifest).toBe(first?.manifest);
    // A publish with another manifest is seen at once.
    const changed = { ...integrationInput().manifest, description: 'changed' };
    await storage.integrations.publish({
      ...integrationInput({ version: '1.1.0', createdAt: 7 }),
      manifest: changed,
    });
    expect((await meta())?.manifest).toEqual(changed);
  });

  it('remove deletes every version of one name and says how many there were', async () => {
    const { storage } = ctx();
    await storage.integrations.publish(integrationInput());
    await storage.integrations.publish(integrationInput({ version: '1.1.0' }));
    await storage.integrations.publish(integrationInput({ name: 'other' }));
    expect(await storage.integrations.remove('hello')).toBe(2);
    expect(await storage.integrations.getLatest('hello')).toBeNull();
    expect(await storage.integrations.listVersions('hello')).toEqual([]);
    expect((await storage.integrations.list()).map((i) => i.name)).toEqual(['other']);
    expect(await storage.integrations.remove('hello')).toBe(0);
  });
}
