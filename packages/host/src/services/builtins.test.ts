import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import type { Storage } from '../storage/index.js';
import { integrationView, publish } from './integrations.js';
import { openTempStorage, removeTempStorage, testContext } from './test-support.js';

let dir: string;
let storage: Storage;

beforeEach(async () => {
  ({ dir, storage } = await openTempStorage('builtins-'));
});
afterEach(() => removeTempStorage(dir, storage));

const webhookDir = dirname(
  createRequire(import.meta.url).resolve('@platform/integration-webhook/package.json'),
);

describe('publishBuiltins', () => {
  it('publishes the webhook integration with its icon, once: a second start adds no version', async () => {
    const ctx = await testContext(dir, storage);
    const first = await storage.integrations.listVersions('webhook');
    expect(first).toHaveLength(1);
    const view = integrationView(ctx, first[0] ?? never());
    expect(view.iconUrl).toMatch(/^http:\/\/127\.0\.0\.1:1\/v1\/assets\/[0-9a-f]{64}$/);
    const hash = view.iconUrl?.split('/').pop() ?? '';
    const icon = await storage.assets.get(hash);
    expect(icon?.contentType).toBe('image/svg+xml');
    expect(icon?.data.toString('utf8')).toBe(await readFile(join(webhookDir, 'assets/icon.svg'), 'utf8'));

    await testContext(dir, storage);
    expect(await storage.integrations.listVersions('webhook')).toHaveLength(1);
  });

  it('republishes a stored version that differs only in its images under a new label (an upgraded host)', async () => {
    await testContext(dir, storage);
    const current = (await storage.integrations.getLatest('webhook')) ?? never();
    // the same version as a host from before icons were uploaded stored it: no images (dev mode only
    // to be allowed to replace it here)
    await storage.integrations.publish({ ...current, devMode: true, assets: {} });
    expect((await storage.integrations.getLatest('webhook'))?.assets).toEqual({});

    await testContext(dir, storage);
    const latest = (await storage.integrations.getLatest('webhook')) ?? never();
    expect(latest.version).toMatch(new RegExp(`^${current.version.replace(/\./g, '\\.')}-[0-9a-f]{8}$`));
    expect(Object.keys(latest.assets ?? {})).toEqual(['assets/icon.svg']);
    await testContext(dir, storage);
    expect((await storage.integrations.getLatest('webhook'))?.version).toBe(latest.version);
  });

  it('refuses to publish a built-in name through the API path (409 reserved_name), in any case or mode', async () => {
    const ctx = await testContext(dir, storage);
    const before = await storage.integrations.listVersions('webhook');
    for (const dev of [false, true]) {
      const attempt = publish(ctx, {
        manifest:
          'name: webhook\ntitle: Evil\ndescription: replaces the built-in\norganization: x\nvisibility: private\nscopes: []\n',
        bundle: 'export default { fetch() { return new Response("pwned"); } };',
        dev,
      });
      await expect(attempt).rejects.toBeInstanceOf(HttpError);
      await expect(attempt).rejects.toMatchObject({ status: 409, code: 'reserved_name' });
      await expect(attempt).rejects.toThrow(/"webhook" is the name of an integration built into the host/);
    }
    expect(await storage.integrations.listVersions('webhook')).toEqual(before);
  });

  it('republishes the built-in from its own files when a stored latest version is not first-party', async () => {
    await testContext(dir, storage);
    const current = (await storage.integrations.getLatest('webhook')) ?? never();
    // what a host before names were reserved could hold: a replacement published through the API
    await storage.integrations.publish({
      ...current,
      version: 'dev',
      firstParty: false,
      devMode: true,
      bundle: 'export default {};',
      bundleHash: 'x',
    });
    expect((await storage.integrations.getLatest('webhook'))?.firstParty).toBe(false);
    await testContext(dir, storage);
    const latest = (await storage.integrations.getLatest('webhook')) ?? never();
    expect(latest.firstParty).toBe(true);
    expect(latest.bundleHash).toBe(current.bundleHash);
  });
});

function never(): never {
  throw new Error('expected a stored integration');
}
