import { describe, expect, it } from 'vitest';
import { configurationDefaults, validateConfiguration } from './configuration.js';
import { parseManifest } from './parse.js';
import type { Manifest } from './schema.js';

function manifest(): Manifest {
  const result = parseManifest(`name: demo
title: Demo
description: d
organization: acme
visibility: private
scopes: []
configurations:
  account:
    properties:
      oauth: { type: button, title: Slack, description: d, button_text: Connect, callback_url: /oauth }
    required: [oauth]
  site:
    properties:
      url: { type: string, title: URL, description: d }
      color: { type: string, title: Color, description: d, enum: [red, blue], default: red }
      count: { type: number, title: Count, description: d, default: 3 }
      on: { type: boolean, title: On, description: d, default: false }
    required: [url, on]
`);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.manifest;
}

describe('validateConfiguration', () => {
  it('accepts a complete configuration and ignores keys the manifest does not define', () => {
    expect(
      validateConfiguration(manifest(), 'site', {
        url: 'https://x',
        on: false,
        color: 'blue',
        extra: { a: 1 },
      }),
    ).toEqual({ ok: true, errors: [] });
  });

  it('reports every problem with its key', () => {
    const check = validateConfiguration(manifest(), 'site', {
      url: '',
      color: 'green',
      count: 'many',
      on: 'yes',
    });
    expect(check.ok).toBe(false);
    expect(check.errors.map((e) => e.key)).toEqual(['url', 'color', 'count', 'on']);
    expect(check.errors[0]?.message).toMatch(/required/);
    expect(check.errors[1]?.message).toMatch(/`red`, `blue`/);
  });

  it('treats a button as satisfied by any non-empty value', () => {
    const m = manifest();
    expect(validateConfiguration(m, 'account', {}).errors[0]?.message).toMatch(/required; use "Connect"/);
    expect(validateConfiguration(m, 'account', { oauth: {} }).ok).toBe(false);
    expect(validateConfiguration(m, 'account', { oauth: { access_token: 't' } }).ok).toBe(true);
  });

  it('accepts anything for a place the manifest does not configure', () => {
    expect(validateConfiguration(manifest(), 'space', { anything: 1 }).ok).toBe(true);
  });

  it('does not apply defaults by itself', () => {
    const m = manifest();
    expect(validateConfiguration(m, 'site', { url: 'u' }).ok).toBe(false);
    expect(validateConfiguration(m, 'site', { ...configurationDefaults(m, 'site'), url: 'u' }).ok).toBe(true);
  });
});

describe('configurationDefaults', () => {
  it('returns the declared defaults only', () => {
    expect(configurationDefaults(manifest(), 'site')).toEqual({ color: 'red', count: 3, on: false });
    expect(configurationDefaults(manifest(), 'account')).toEqual({});
    expect(configurationDefaults({}, 'site')).toEqual({});
  });
});
