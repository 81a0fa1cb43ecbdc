import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseManifest } from '@platform/manifest';
import { describe, expect, it } from 'vitest';
import hello from '../src/index';
import { exampleDir } from './harness';

describe('examples/hello manifest', () => {
  const text = readFileSync(join(exampleDir, 'platform-manifest.yaml'), 'utf8');

  it('is valid (checked by @platform/manifest)', () => {
    const result = parseManifest(text, { dir: exampleDir });
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it('declares a block for every component and uses every property type', () => {
    const ids = hello.definition.components?.map((c) => c.componentId);
    expect(ids).toEqual(['counter']);
    expect(text).toMatch(/blocks:\n\s+- id: counter/);
    for (const needle of [
      'type: string',
      'enum:',
      'completion_url: /channels',
      'type: number',
      'type: boolean',
      'type: button',
      'callback_url: /oauth',
    ]) {
      expect(text).toContain(needle);
    }
  });
});
