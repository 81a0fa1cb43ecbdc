import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contentKitReference } from './docs';
import { ELEMENT_SCHEMAS } from './schema';

const COMMITTED = new URL('../../../../docs/contentkit.md', import.meta.url);

describe('docs/contentkit.md', () => {
  it('is the one generated from the schema (regenerate: npm run build && node scripts/contentkit-docs.mjs)', () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(contentKitReference());
  });

  it('documents every element with its attributes and every attribute with a description', () => {
    const text = contentKitReference();
    for (const type of Object.keys(ELEMENT_SCHEMAS)) expect(text).toContain(`#### \`${type}\``);
    expect(text).toMatch(
      /\| `onPress` \| \[Action\]\(#actions\) \| yes \| action dispatched when pressed \|/,
    );
    const rows = text.split('\n').filter((l) => /^\| `[\w$]+` \|/.test(l) && !l.startsWith('| `@'));
    expect(rows.length).toBeGreaterThan(60);
    const undocumented = rows.filter((l) => /\|\s*\|$/.test(l) && !/^\| `type`/.test(l));
    expect(undocumented).toEqual([]);
  });
});
