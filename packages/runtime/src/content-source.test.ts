import { describe, expect, it } from 'vitest';
import { createContentSource } from './content-source';
import { createIntegration } from './integration';
import { envelopeRequest } from './testing';

const base = { eventId: 'evt_1', installationId: 'inst_1', spaceId: 'spc_1', dependencies: {} };

describe('createContentSource', () => {
  const source = createContentSource<{ count?: number }, { n?: number }>({
    sourceId: 'numbers',
    getRevision: async ({ props }) => ({
      pages: Array.from({ length: props.count ?? 1 }, (_, i) => ({
        id: `n${i}`,
        title: `Number ${i}`,
        computed: { props: { n: i } },
      })),
    }),
    getPageDocument: async ({ props }) => ({ nodes: [{ type: 'text', text: `This is ${props.n}.` }] }),
  });
  const integration = createIntegration({ contentSources: [source] });

  it('answers the pages and the document of a page as JSON', async () => {
    const pages = await integration.fetch(
      envelopeRequest({
        ...base,
        type: 'content_compute_revision',
        sourceId: 'numbers',
        props: { count: 2 },
      }),
    );
    expect(pages.status).toBe(200);
    expect(await pages.json()).toEqual({
      pages: [
        { id: 'n0', title: 'Number 0', computed: { props: { n: 0 } } },
        { id: 'n1', title: 'Number 1', computed: { props: { n: 1 } } },
      ],
    });
    const document = await integration.fetch(
      envelopeRequest({ ...base, type: 'content_compute_document', sourceId: 'numbers', props: { n: 1 } }),
    );
    expect(await document.json()).toEqual({ document: { nodes: [{ type: 'text', text: 'This is 1.' }] } });
  });

  it('answers 404 for a source it does not have, 400 without a sourceId', async () => {
    const none = await integration.fetch(
      envelopeRequest({ ...base, type: 'content_compute_revision', sourceId: 'letters', props: {} }),
    );
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('content_source_not_found');
    const bad = await integration.fetch(
      envelopeRequest({ ...base, type: 'content_compute_document', props: {} }),
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/needs a string sourceId and object props/);
  });
});
