import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';
import { startTestHost, type TestHost } from './helpers.js';

interface Doc {
  spaceId: string;
  nodes: Array<Record<string, unknown>>;
  revision: number;
  updatedAt: string | null;
}
interface ErrorAnswer {
  error: { code: string; message: string; details?: { revision?: number } };
}

/** A one-file integration that renders nothing; only its manifest matters here. */
async function publish(t: TestHost, name: string, scopes: string[]) {
  const manifest = `name: ${name}\ntitle: ${name}\norganization: test\nscopes: [${scopes.join(', ')}]\n`;
  const res = await t.api('POST', '/v1/integrations', { manifest, bundle: 'export default {}' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

async function install(t: TestHost, integration: string, space: string) {
  const res = await t.api<{ id: string }>('POST', '/v1/installations', { integration, space });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

describe.each(BACKENDS)('space documents (%s)', (backend) => {
  let t: TestHost;
  let reader = '';
  let blind = '';
  beforeAll(async () => {
    t = await startTestHost({}, backend);
    await publish(t, 'doc-reader', ['space:content:read']);
    await publish(t, 'doc-blind', []);
    reader = await install(t, 'doc-reader', 'space_docs');
    blind = await install(t, 'doc-blind', 'space_docs');
  });
  afterAll(async () => {
    await t.close();
  });

  const path = (space = 'space_docs') => `/v1/spaces/${space}/document`;
  const block = (id: string, installationId: string, props: Record<string, unknown>) => ({
    type: 'block',
    id,
    installationId,
    componentId: 'diagram',
    props,
  });

  it('answers an empty document first, saves with compare-and-set, and keeps what was saved', async () => {
    expect((await t.api<Doc>('GET', path())).body).toEqual({
      spaceId: 'space_docs',
      nodes: [],
      revision: 0,
      updatedAt: null,
    });
    const nodes = [{ type: 'text', text: 'Intro' }, block('b1', reader, { content: 'A --> B' })];
    const saved = await t.api<Doc>('PUT', path(), { nodes, baseRevision: 0 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ nodes, revision: 1, updatedAt: expect.stringMatching(/^\d{4}-/) });
    expect((await t.api<Doc>('GET', path())).body).toEqual(saved.body);

    const stale = await t.api<ErrorAnswer>('PUT', path(), { nodes: [], baseRevision: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'document_changed', details: { revision: 1 } });
    expect(stale.body.error.message).toMatch(
      /saved elsewhere meanwhile \(revision 1, this save was based on 0\)/,
    );
    expect((await t.api<Doc>('GET', path())).body.nodes).toEqual(nodes); // unchanged
  });

  it('replaces one block’s props whatever else changed, and drops its pasted URL', async () => {
    const base = (await t.api<Doc>('GET', path())).body;
    const nodes = [...base.nodes, { ...block('b2', reader, {}), unfurl: 'https://example.com/x' }];
    const withUrl = await t.api<Doc>('PUT', path(), { nodes, baseRevision: base.revision });
    expect(withUrl.status, JSON.stringify(withUrl.body)).toBe(200);
    const patched = await t.api<Doc>('PATCH', `${path()}/blocks/b2`, {
      props: { url: 'https://example.com/x' },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.revision).toBe(withUrl.body.revision + 1);
    expect(patched.body.nodes[2]).toEqual(block('b2', reader, { url: 'https://example.com/x' }));
    expect(patched.body.nodes[1]).toEqual(block('b1', reader, { content: 'A --> B' }));

    const props = await t.api<Doc>('PATCH', `${path()}/blocks/b1`, { props: { content: 'A --> C' } });
    expect(props.body.nodes[1]).toEqual(block('b1', reader, { content: 'A --> C' }));
    expect((await t.api<Doc>('GET', path())).body.nodes[1]).toEqual(
      block('b1', reader, { content: 'A --> C' }),
    );
  });

  it('refuses bad input clearly and changes nothing', async () => {
    const before = (await t.api<Doc>('GET', path())).body;
    const cases: Array<[string, string, unknown, number, RegExp]> = [
      ['PUT', path(), { nodes: [{ type: 'para', text: 'x' }] }, 400, /body\.nodes\.0/],
      [
        'PUT',
        path(),
        { nodes: [block('dup', reader, {}), block('dup', reader, {})] },
        400,
        /"dup" is used twice/,
      ],
      ['PUT', path(), { nodes: [block('has space', reader, {})] }, 400, /1-64 letters, digits/],
      ['PUT', path(), { nodes: [], baseRevision: -1 }, 400, /baseRevision/],
      ['PATCH', `${path()}/blocks/nope`, { props: {} }, 404, /Block "nope"/],
      ['PATCH', `${path()}/blocks/b1`, { props: 'x' }, 400, /props/],
      ['PATCH', `${path('space_empty')}/blocks/b1`, { props: {} }, 404, /space "space_empty"/],
    ];
    for (const [method, url, body, status, message] of cases) {
      const res = await t.api<ErrorAnswer>(method, url, body);
      expect(res.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(status);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await t.api<Doc>('GET', path())).body).toEqual(before);
  });

  it('scopes installations: read with space:content:read in its space, update only its own blocks, never save', async () => {
    const readerToken = t.host.context.tokens.issue(reader);
    const blindToken = t.host.context.tokens.issue(blind);
    expect((await t.api<Doc>('GET', path(), undefined, readerToken)).body.nodes.length).toBe(3);
    const noScope = await t.api<ErrorAnswer>('GET', path(), undefined, blindToken);
    expect(noScope.status).toBe(403);
    expect(noScope.body.error.message).toMatch(/needs the scope `space:content:read`/);
    const elsewhere = await t.api<ErrorAnswer>('GET', path('space_other'), undefined, readerToken);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.error.message).toMatch(/not installed in space "space_other"/);

    const own = await t.api<Doc>('PATCH', `${path()}/blocks/b1`, { props: { content: 'X' } }, readerToken);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const other = await t.api<ErrorAnswer>('PATCH', `${path()}/blocks/b1`, { props: {} }, blindToken);
    expect(other.status).toBe(403);
    const save = await t.api<ErrorAnswer>('PUT', path(), { nodes: [] }, readerToken);
    expect(save.status).toBe(403);
    expect((await t.api<Doc>('GET', path())).body.nodes[1]).toMatchObject({ props: { content: 'X' } });
  });

  it('keeps every concurrent props update (retried compare-and-set), on one document', async () => {
    const nodes = Array.from({ length: 6 }, (_, i) => block(`c${i}`, reader, { n: 0 }));
    expect((await t.api('PUT', path('space_race'), { nodes })).status).toBe(200);
    const answers = await Promise.all(
      nodes.map((_, i) => t.api<Doc>('PATCH', `${path('space_race')}/blocks/c${i}`, { props: { n: i + 1 } })),
    );
    expect(answers.map((a) => a.status)).toEqual(nodes.map(() => 200));
    const final = (await t.api<Doc>('GET', path('space_race'))).body;
    expect(final.nodes.map((n) => (n.props as { n: number }).n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(final.revision).toBe(7);
  });
});
