import { describe, expect, it } from 'vitest';
import { normalizeName } from './names.js';
import { parseManifest } from './parse.js';
import { BASE } from './test-fixtures.js';

describe('names with capitals', () => {
  it('reads a capitalised name in lowercase, with a warning on the name that says what to write', () => {
    const result = parseManifest(BASE.replace(/^name: .*$/m, 'name: Acme-Sso2'));
    expect(result.ok).toBe(true);
    expect(result.ok && result.manifest.name).toBe('acme-sso2');
    expect(result.warnings).toEqual([
      expect.objectContaining({
        path: 'name',
        line: 1,
        severity: 'warning',
        message: expect.stringMatching(/`name` `Acme-Sso2` is read as `acme-sso2`.*write `name: acme-sso2`/),
      }),
    ]);
  });

  it('still refuses a name that is no slug in any case', () => {
    const result = parseManifest(BASE.replace(/^name: .*$/m, 'name: Acme_SSO'));
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/`name` must be a lowercase slug/),
    ]);
    expect(normalizeName({ name: 'already-fine' }).warnings).toEqual([]);
  });
});
