import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { integrationInput } from '../storage/contract/fixtures.js';
import { openStorage } from '../storage/index.js';
import { PublishedScriptCache, siteScriptTargets } from './published-scripts.js';
import { testContext } from './test-support.js';

const script = (size: number, ttl: number) => async () => ({
  body: new Uint8Array(size),
  cacheControl: 'public, max-age=60',
  etag: '"e"',
  ttl,
});

describe('PublishedScriptCache', () => {
  it('keeps a script for its ttl on the injected clock, and shares one load between concurrent asks', async () => {
    let now = 0;
    let loads = 0;
    const cache = new PublishedScriptCache(() => now);
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 10));
      return script(3, 60)();
    };
    await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    expect(loads).toBe(1);
    now = 59_999;
    await cache.get('k', load);
    expect(loads).toBe(1);
    now = 60_000;
    await cache.get('k', load);
    expect(loads).toBe(2);
  });

  it('keeps nothing for ttl 0 nor after a failed load, and drops the oldest over its entry or byte bounds', async () => {
    const cache = new PublishedScriptCache(() => 0, { entries: 2, bytes: 10 });
    let loads = 0;
    const counted =
      (size: number, ttl = 60) =>
      async () => {
        loads++;
        return script(size, ttl)();
      };
    await cache.get('none', counted(1, 0));
    await cache.get('none', counted(1, 0));
    expect(loads).toBe(2);
    await expect(cache.get('bad', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await cache.get('bad', counted(1));
    expect(loads).toBe(3);
    await cache.get('a', counted(4));
    await cache.get('b', counted(7)); // bad, a, b: over 2 entries (bad goes), then over 10 bytes (a goes)
    loads = 0;
    await cache.get('b', counted(7));
    expect(loads).toBe(0);
    await cache.get('a', counted(4));
    expect(loads).toBe(1);
  });
});

describe('siteScriptTargets', () => {
  it("a site's active installations whose integration may inject a script, or those of one integration", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-scripts-'));
    const storage = await openStorage({ sqlitePath: join(dir, 'p.db') });
    try {
      const ctx = await testContext(dir, storage);
      const publish = (name: string, scopes: string[]) =>
        storage.integrations.publish(integrationInput({ name, manifest: { name, scopes } }));
      await publish('alpha', ['site:script:inject']);
      await publish('beta', ['space:script:inject']); // the old name of the same scope
      await publish('gamma', ['space:content:read']);
      let now = 1_000; // oldest first: each created a millisecond after the one before
      const install = (integrationName: string, siteId: string, status: 'active' | 'paused' = 'active') =>
        storage.installations.create({
          now: now++,
          integrationName,
          target: 'site',
          siteId,
          status,
          tokenHash: `${integrationName}-${siteId}-${status}`,
        });
      const alpha = await install('alpha', 'site_1');
      const beta = await install('beta', 'site_1');
      await install('gamma', 'site_1'); // no script scope
      await install('alpha', 'site_2'); // another site
      await install('beta', 'site_1', 'paused');
      const ids = async (name?: string) =>
        (await siteScriptTargets(ctx, 'site_1', name)).map((t) => [t.installation.id, t.integration.name]);
      expect(await ids()).toEqual([
        [alpha.id, 'alpha'],
        [beta.id, 'beta'],
      ]);
      expect(await ids('beta')).toEqual([[beta.id, 'beta']]);
      expect(await ids('gamma')).toEqual([]);
    } finally {
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
