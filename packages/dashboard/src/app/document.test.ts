import type { DocumentNode } from '@platform/api-client';
import { describe, expect, it } from 'vitest';
import { markdownSpecs, normalizeNodes, pasteMarkdown } from './document';

const specs = markdownSpecs([
  { installationId: 'inst_d', blockId: 'diagram', markdown: { codeblock: 'flow', body: 'content' } },
  { installationId: 'inst_c', blockId: 'counter' },
]);

describe('editor document helpers', () => {
  it('lists the Markdown specs of the blocks that have one', () => {
    expect(specs).toEqual([
      { installationId: 'inst_d', componentId: 'diagram', codeblock: 'flow', body: 'content' },
    ]);
  });

  it('keeps a text node first and merges adjacent text', () => {
    const block: DocumentNode = { type: 'block', id: 'b', installationId: 'i', componentId: 'c', props: {} };
    expect(normalizeNodes([block])).toEqual([{ type: 'text', text: '' }, block]);
    expect(
      normalizeNodes([
        { type: 'text', text: 'a' },
        { type: 'text', text: '' },
        { type: 'text', text: 'b' },
      ]),
    ).toEqual([{ type: 'text', text: 'ab' }]);
  });

  it('pastes a known fence as its block at the cursor, splitting the text; other pastes are left to the field', () => {
    const nodes: DocumentNode[] = [{ type: 'text', text: 'Before after' }];
    const pasted = pasteMarkdown(nodes, 0, 7, 7, 'See:\n\n```flow\nA --> B\n```\n\nDone ', specs, () => 'n1');
    expect(pasted).toEqual([
      { type: 'text', text: 'Before See:' },
      {
        type: 'block',
        id: 'n1',
        installationId: 'inst_d',
        componentId: 'diagram',
        props: { content: 'A --> B' },
      },
      { type: 'text', text: 'Done after' },
    ]);
    expect(pasteMarkdown(nodes, 0, 0, 0, '```js\nx\n```', specs)).toBeUndefined();
    expect(pasteMarkdown(nodes, 0, 0, 0, 'plain', specs)).toBeUndefined();
  });
});
