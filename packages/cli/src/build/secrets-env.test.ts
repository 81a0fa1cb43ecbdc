import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseManifest, resolveSecrets } from '@platform/manifest';
import { describe, expect, it } from 'vitest';
import { referencedEnvNames, referencedSecretRefs, secretEnv } from './secrets-env.js';

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

describe('secret-manager references (op://vault/item/field)', () => {
  /** A reference expression, built without a template-looking literal. */
  const manager = (uri: string) => `$\{{ "${uri}" }}`;
  const withRefs = {
    secrets: {
      ID: manager('op://team/app/CLIENT_ID'),
      KEY: `k-${manager('op://team/app/KEY')}`,
      A: ref('KEY_A'),
    },
  };

  it('sends each reference with its value from .secrets.json, beside the variables', () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-env-'));
    writeFileSync(
      join(dir, '.secrets.json'),
      JSON.stringify({ 'op://team/app/CLIENT_ID': 'id-1', 'op://team/app/KEY': 'key-1', 'op://other': 'x' }),
    );
    expect(referencedSecretRefs(withRefs)).toEqual(['op://team/app/CLIENT_ID', 'op://team/app/KEY']);
    expect(secretEnv(dir, withRefs, { KEY_A: 'a' })).toEqual({
      KEY_A: 'a',
      'op://team/app/CLIENT_ID': 'id-1',
      'op://team/app/KEY': 'key-1',
    });
    // what the host then resolves: the reference's value in place of the expression
    expect(resolveSecrets(withRefs, secretEnv(dir, withRefs, { KEY_A: 'a' }))).toEqual({
      ID: 'id-1',
      KEY: 'k-key-1',
      A: 'a',
    });
  });

  it('reads --secrets <file> instead, and names the references a file lacks (never a value)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-env-'));
    writeFileSync(join(dir, 'vault.json'), JSON.stringify({ 'op://team/app/CLIENT_ID': 'id-2' }));
    expect(() => secretEnv(dir, withRefs, { KEY_A: 'a' }, undefined, 'vault.json')).toThrow(
      /vault\.json has no string value for op:\/\/team\/app\/KEY; it must be a JSON object mapping each reference/,
    );
    expect(() => secretEnv(dir, withRefs, { KEY_A: 'a' })).toThrow(
      /reference op:\/\/team\/app\/CLIENT_ID, op:\/\/team\/app\/KEY, resolved at publish from .*--secrets <file>.*\.secrets\.json does not exist/,
    );
    try {
      secretEnv(dir, withRefs, { KEY_A: 'a' }, undefined, 'vault.json');
    } catch (error) {
      expect(String(error)).not.toContain('id-2');
    }
  });

  it('is a valid manifest secret (no literal-value warning), and a malformed one says both forms', () => {
    const parsed = parseManifest(
      `name: refs\ntitle: Refs\norganization: acme\nvisibility: private\nscopes: []\nsecrets:\n  ID: '${manager('op://team/app/CLIENT_ID')}'\n  BAD: '$\{{ op://no-quotes }}'\n`,
    );
    expect(parsed.ok).toBe(false);
    const messages = parsed.ok ? [] : parsed.errors.map((e) => e.message);
    expect(messages).toEqual([
      expect.stringMatching(/secret `BAD`: .*`\$\{\{ "op:\/\/vault\/item\/field" \}\}`/),
    ]);
    expect([...(parsed.ok ? [] : parsed.warnings)].map((w) => w.message).join()).not.toMatch(/secret `ID`/);
  });
});
