import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENTKIT_DOCS_PATH, contentKitReference } from './docs';
import { ELEMENTS_INDEX_PATH, elementsIndexSource } from './elements-index';
import { CONTENTKIT_SCHEMA_PATH, contentKitJsonSchema } from './json-schema';
import { JSX_NAMES_PATH, jsxNamesSource } from './jsx-names';
import { CONTENTKIT_JSX } from './jsx-names.generated';
import { ELEMENT_SCHEMAS, ELEMENTS } from './schema';

const root = join(import.meta.dirname, '..', '..', '..', '..');
const stale = 'is stale: run `npm run gen:contentkit` and commit the result';
const committed = (path: string) => readFileSync(join(root, path), 'utf8');

describe('files generated from the element declarations', () => {
  it(`${ELEMENTS_INDEX_PATH} lists every element file of its folder`, () => {
    // An element file exports `element` (a file without one is a helper the others share: stack.ts).
    const dir = join(import.meta.dirname, 'elements');
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .filter((f) => /^export const element = /m.test(readFileSync(join(dir, f), 'utf8')))
      .map((f) => f.slice(0, -'.ts'.length));
    expect(files.length).toBeGreaterThan(20);
    expect(ELEMENTS.map((e) => e.type).sort(), `${ELEMENTS_INDEX_PATH} ${stale}`).toEqual(files.sort());
    expect(committed(ELEMENTS_INDEX_PATH), `${ELEMENTS_INDEX_PATH} ${stale}`).toBe(
      elementsIndexSource(ELEMENTS),
    );
  });

  it(`${CONTENTKIT_DOCS_PATH} is current`, () => {
    expect(committed(CONTENTKIT_DOCS_PATH), `${CONTENTKIT_DOCS_PATH} ${stale}`).toBe(contentKitReference());
  });

  it(`${CONTENTKIT_SCHEMA_PATH} is current`, () => {
    expect(committed(CONTENTKIT_SCHEMA_PATH), `${CONTENTKIT_SCHEMA_PATH} ${stale}`).toBe(
      `${JSON.stringify(contentKitJsonSchema(), null, 2)}\n`,
    );
  });

  it(`${JSX_NAMES_PATH} is current`, () => {
    expect(committed(JSX_NAMES_PATH), `${JSX_NAMES_PATH} ${stale}`).toBe(jsxNamesSource());
    expect(Object.keys(CONTENTKIT_JSX)).toEqual(ELEMENTS.map((e) => e.type));
  });
});

describe('docs/contentkit.md', () => {
  it('documents every element with its attributes and every attribute with a description', () => {
    const text = contentKitReference();
    for (const { type } of ELEMENTS) expect(text).toContain(`#### \`${type}\``);
    expect(text).toMatch(
      /\| `onPress` \| \[Action\]\(#actions\) \| yes \| action dispatched when pressed \|/,
    );
    expect(text).toContain(
      '| `element` | element | yes | the control: `button`, `checkbox`, `radio`, `select`, `switch`, `textinput` or `codeblock` |',
    );
    const rows = text.split('\n').filter((l) => /^\| `[\w$]+` \|/.test(l) && !l.startsWith('| `@'));
    expect(rows.length).toBeGreaterThan(60);
    const undocumented = rows.filter((l) => /\|\s*\|$/.test(l) && !/^\| `type`/.test(l));
    expect(undocumented).toEqual([]);
  });
});

describe('the JSON Schema', () => {
  const schema = contentKitJsonSchema() as { $ref: string; $defs: Record<string, unknown> };
  const refs = (node: unknown, out: string[] = []): string[] => {
    if (Array.isArray(node)) for (const n of node) refs(n, out);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') out.push(v);
        else refs(v, out);
      }
    }
    return out;
  };

  it('has a definition per element, and every reference resolves', () => {
    for (const { type } of ELEMENTS) expect(schema.$defs).toHaveProperty(type);
    const missing = refs(schema).filter((r) => !(r.replace('#/$defs/', '') in schema.$defs));
    expect(missing).toEqual([]);
    expect(schema.$ref).toBe('#/$defs/renderOutput');
  });

  it('offers exactly the root and descendant elements at the root, and no placeholder text', () => {
    const element = schema.$defs.element as { oneOf: Array<{ $ref: string }> };
    expect(element.oneOf.map((r) => r.$ref.replace('#/$defs/', ''))).toEqual(Object.keys(ELEMENT_SCHEMAS));
    expect(JSON.stringify(schema)).not.toContain('{field elements}');
  });
});
