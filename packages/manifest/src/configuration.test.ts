import { describe, expect, it } from 'vitest';
import { configurationDefaults, sampleConfiguration, validateConfiguration } from './configuration.js';
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

describe('sampleConfiguration', () => {
  const sample = (properties: string, required: string) =>
    sampleConfiguration(
      parseOk(`name: demo
title: Demo
scopes: []
configurations:
  site:
    properties:
${properties}
    required: [${required}]
`),
      'site',
    );

  it('completes every required property: its default, else a sample of its type, and validates', () => {
    const m = manifest();
    const configuration = sampleConfiguration(m, 'site');
    expect(configuration).toEqual({ url: 'https://example.com/sample', color: 'red', count: 3, on: false });
    expect(validateConfiguration(m, 'site', configuration)).toEqual({ ok: true, errors: [] });
    // A button (OAuth credentials) has no sample.
    expect(sampleConfiguration(m, 'account')).toEqual({});
    expect(sampleConfiguration({}, 'space')).toEqual({});
  });

  it('samples by type: first enum value, URL and email by a word of the name, 1, false; optional ones stay unset', () => {
    const configuration = sample(
      `      tracking_id: { type: string, title: T, description: d }
      region: { type: string, title: R, description: d, enum: [EU, US] }
      scriptLoaderUrl: { type: string, title: L, description: d }
      redirect_uri: { type: string, title: U, description: d }
      contact-email: { type: string, title: E, description: d }
      security: { type: string, title: S, description: d }
      rate: { type: number, title: N, description: d }
      strict: { type: boolean, title: B, description: d }
      optional: { type: string, title: O, description: d }`,
      'tracking_id, region, scriptLoaderUrl, redirect_uri, contact-email, security, rate, strict',
    );
    expect(configuration).toEqual({
      tracking_id: 'sample',
      region: 'EU',
      scriptLoaderUrl: 'https://example.com/sample',
      redirect_uri: 'https://example.com/sample',
      'contact-email': 'sample@example.com',
      security: 'sample',
      rate: 1,
      strict: false,
    });
  });
});

function parseOk(text: string): Manifest {
  const result = parseManifest(text);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.manifest;
}
