import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateKey } from './box.js';
import { resolveKeyRing } from './keys.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platform-keys-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('resolveKeyRing', () => {
  it('generates the key file at first start (mode 0600) and reads the same key afterwards', async () => {
    const keyFile = join(dir, 'nested', 'secrets-key');
    const first = await resolveKeyRing({ keyFile, oldKeys: [] });
    expect(first.source).toBe('generated');
    expect((await readFile(keyFile, 'utf8')).trim()).toBe(first.ring.current);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const again = await resolveKeyRing({ keyFile, oldKeys: [] });
    expect(again).toEqual({ ring: { current: first.ring.current, old: [] }, source: 'file' });
  });

  it('two starts at once on one folder keep one key', async () => {
    const keyFile = join(dir, 'secrets-key');
    const rings = await Promise.all(
      Array.from({ length: 4 }, () => resolveKeyRing({ keyFile, oldKeys: [] })),
    );
    expect(new Set(rings.map((r) => r.ring.current)).size).toBe(1);
    expect(rings.filter((r) => r.source === 'generated')).toHaveLength(1);
    expect(await readdir(dir)).toEqual(['secrets-key']); // no draft left behind
  });

  it('PLATFORM_SECRETS_KEY wins and writes no file; old keys are kept', async () => {
    const key = generateKey();
    const old = generateKey();
    const keyFile = join(dir, 'secrets-key');
    const resolved = await resolveKeyRing({ key, keyFile, oldKeys: [old] });
    expect(resolved).toEqual({ ring: { current: key, old: [old] }, source: 'environment' });
    await expect(stat(keyFile)).rejects.toThrow();
  });

  it('a key file that is not a key is refused with its path, not replaced', async () => {
    const keyFile = join(dir, 'secrets-key');
    await writeFile(keyFile, 'not a key\n');
    await expect(resolveKeyRing({ keyFile, oldKeys: [] })).rejects.toThrow(
      `the secrets key file ${keyFile} is not a secrets key`,
    );
    expect(await readFile(keyFile, 'utf8')).toBe('not a key\n');
  });
});
