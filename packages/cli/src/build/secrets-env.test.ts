import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { referencedEnvNames, secretEnv } from './secrets-env.js';

/** `${{ env.NAME }}` expressions of the manifest, built without a template-looking literal. */
const ref = (name: string) => `$\{{ env.${name} }}`;
const manifest = { secrets: { A: ref('KEY_A'), B: `Bearer ${ref('KEY_B')}`, C: 'plain' } };

describe('secretEnv', () => {
  it('lists the referenced variables', () => {
    expect(referencedEnvNames(manifest)).toEqual(['KEY_A', 'KEY_B']);
    expect(referencedEnvNames({})).toEqual([]);
  });

  it('sends only referenced variables: the process environment wins over .env.<name>', () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-env-'));
    writeFileSync(join(dir, '.env.production'), 'KEY_A=from-file\nKEY_B="quoted value"\nOTHER=x\n');
    expect(secretEnv(dir, manifest, { KEY_A: 'from-process', UNRELATED: 'y' }, 'production')).toEqual({
      KEY_A: 'from-process',
      KEY_B: 'quoted value',
    });
  });

  it('names the missing variables and the file looked at', () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-env-'));
    expect(() => secretEnv(dir, manifest, { KEY_A: 'a' })).toThrow(
      /the manifest secrets need KEY_B: set it in the environment or in \.env \(\.env does not exist in /,
    );
    expect(() => secretEnv(dir, manifest, {}, 'staging')).toThrow(
      /need KEY_A, KEY_B: .* in \.env\.staging \(\.env\.staging does not exist in /,
    );
    // without the file, the process environment is enough (a CI job sets the variables)
    expect(secretEnv(dir, manifest, { KEY_A: 'a', KEY_B: 'b' }, 'staging')).toEqual({
      KEY_A: 'a',
      KEY_B: 'b',
    });
  });
});
