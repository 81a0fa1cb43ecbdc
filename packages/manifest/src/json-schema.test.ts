import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { manifestJsonSchema } from './json-schema.js';
import { SCOPES } from './scopes.js';

const COMMITTED = new URL('../manifest.schema.json', import.meta.url);

type Json = { [key: string]: unknown };
const at = (schema: Json, ...keys: string[]): Json =>
  keys.reduce<Json>((node, key) => (node[key] ?? {}) as Json, schema);

describe('manifestJsonSchema', () => {
  it('matches the committed manifest.schema.json (regenerate: platform manifest schema > packages/manifest/manifest.schema.json)', () => {
    const committed = JSON.parse(readFileSync(COMMITTED, 'utf8'));
    expect(committed).toEqual(manifestJsonSchema());
  });

  it('is strict, described and lists the enums', () => {
    const schema = manifestJsonSchema() as Json;
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['name', 'title', 'scopes']);
    expect(at(schema, 'properties', 'visibility').default).toBe('private');
    const properties = at(schema, 'properties');
    expect(at(properties, 'visibility').enum).toEqual(['private', 'unlisted', 'public']);
    expect(at(properties, 'scopes', 'items').enum).toEqual([...SCOPES]);
    expect(at(properties, 'summary').maxLength).toBe(2048);
    for (const [key, value] of Object.entries(properties)) {
      expect((value as Json).description, key).toEqual(expect.any(String));
    }
    const property = at(properties, 'configurations', 'properties', 'site', 'properties', 'properties');
    const variants = at(property, 'additionalProperties').oneOf as Json[];
    expect(variants.map((v) => at(v, 'properties', 'type').const)).toEqual([
      'string',
      'number',
      'boolean',
      'button',
    ]);
    expect(variants.every((v) => v.additionalProperties === false)).toBe(true);
    expect(at(variants[3] ?? {}, 'required')).toEqual(
      expect.arrayContaining(['button_text', 'callback_url']),
    );
  });
});
