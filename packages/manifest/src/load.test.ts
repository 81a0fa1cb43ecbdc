import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ManifestNotFoundError } from './errors.js';
import { loadManifest } from './load.js';

const examples = (name: string) =>
  fileURLToPath(new URL(`../../../examples/manifests/${name}`, import.meta.url));

describe('loadManifest', () => {
  it('loads the valid example with its files and no warnings', () => {
    const result = loadManifest(examples('valid'));
    expect(result.ok && result.warnings).toEqual([]);
    expect(result.ok && result.manifest.name).toBe('slack-notifier');
  });

  it('reports the invalid example', () => {
    const result = loadManifest(examples('invalid'));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.length).toBeGreaterThanOrEqual(10);
  });

  it('throws a typed error for a missing folder or file', () => {
    expect(() => loadManifest(examples('nope'))).toThrow(ManifestNotFoundError);
    try {
      loadManifest(fileURLToPath(new URL('.', import.meta.url)));
    } catch (error) {
      expect(error).toMatchObject({
        code: 'manifest_not_found',
        message: expect.stringMatching(/no platform-manifest\.yaml/),
      });
      return;
    }
    throw new Error('expected a throw');
  });
});
