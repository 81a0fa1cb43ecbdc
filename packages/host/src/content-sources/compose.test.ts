import { MAX_SOURCE_DEPTH, MAX_SOURCE_PAGES } from '@platform/api-client/document-schema';
import { describe, expect, it } from 'vitest';
import { composeDocument, flattenPages } from './compose.js';

describe('flattenPages', () => {
  it('lists each page before its children, with its depth', () => {
    const flat = flattenPages([
      { id: 'a', title: 'A', pages: [{ id: 'a1', title: 'A1' }] },
      { id: 'b', title: 'B' },
    ]);
    expect(flat).toEqual([
      { page: expect.objectContaining({ id: 'a' }), depth: 0 },
      { page: { id: 'a1', title: 'A1' }, depth: 1 },
      { page: { id: 'b', title: 'B' }, depth: 0 },
    ]);
  });

  it('refuses an id used twice, too many pages and too deep a tree, saying where', () => {
    expect(flattenPages([{ id: 'a', title: 'A', pages: [{ id: 'a', title: 'again' }] }])).toEqual({
      problem: 'pages.0.pages.0.id: page id "a" is used twice; every page needs its own id',
    });
    const many = Array.from({ length: MAX_SOURCE_PAGES + 1 }, (_, i) => ({ id: `p${i}`, title: 'P' }));
    expect(flattenPages(many)).toEqual({
      problem: `a content source generates at most ${MAX_SOURCE_PAGES} pages`,
    });
    let deep = { id: 'd0', title: 'D' } as { id: string; title: string; pages?: unknown[] };
    for (let i = 1; i <= MAX_SOURCE_DEPTH; i++) deep = { id: `d${i}`, title: 'D', pages: [deep] };
    expect(flattenPages([deep as never])).toEqual({
      problem: expect.stringMatching(/nested at most 4 deep/),
    });
  });
});

describe('composeDocument', () => {
  it('writes a heading per page at its level, then its nodes, block ids prefixed with the page id', () => {
    const nodes = composeDocument(
      [
        { page: { id: 'guide', title: 'Guide', description: 'How to' }, depth: 0 },
        { page: { id: 'v1.0', title: '  Setup \n now ' }, depth: 1 },
      ],
      new Map([
        ['guide', [{ type: 'text' as const, text: 'Intro' }]],
        ['v1.0', [{ type: 'block' as const, id: 'b1', installationId: 'i', componentId: 'c', props: {} }]],
      ]),
    );
    expect(nodes).toEqual([
      { type: 'text', text: '# Guide\n\nHow to' },
      { type: 'text', text: 'Intro' },
      { type: 'text', text: '## Setup now' },
      { type: 'block', id: 'v1_0-b1', installationId: 'i', componentId: 'c', props: {} },
    ]);
  });
});
