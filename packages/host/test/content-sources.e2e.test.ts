import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';
import { bundleIntegration, readRepoFile, repoRoot, startTestHost, type TestHost } from './helpers.js';

/**
 * Content sources (docs/content-sources.md) end to end: the release-notes example under workerd reads a
 * JSON feed from a real HTTP server, the host asks it for its pages and each page's document and stores
 * them as the space's document.
 */

interface Doc {
  nodes: Array<{ type: string; text?: string }>;
  revision: number;
}
interface ErrorBody {
  error: { code: string; message: string };
}

describe.each(BACKENDS)('%s', (backend) => {
  let t: TestHost;
  let feedServer: Server;
  let feed: unknown = [];
  let feedUrl = '';
  let installationId = '';

  beforeAll(async () => {
    feedServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(feed));
    });
    await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
    feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/releases.json`;
    t = await startTestHost({ PLATFORM_ALLOW_PRIVATE_TARGETS: '1' }, backend);
    const manifest = await readRepoFile('examples/release-notes/platform-manifest.yaml');
    const bundle = await bundleIntegration(join(repoRoot, 'examples/release-notes'), 'src/index.ts');
    const published = await t.api('POST', '/v1/integrations', { manifest, bundle });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const installed = await t.api<{ id: string; status: string }>('POST', '/v1/installations', {
      integration: 'release-notes',
      space: 'space_releases',
      configuration: { feed_url: feedUrl },
    });
    expect(installed.body.status, JSON.stringify(installed.body)).toBe('active');
    installationId = installed.body.id;
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => feedServer?.close(resolve));
  });

  const sync = (body: Record<string, unknown>, space = 'space_releases') =>
    t.api<ErrorBody & { revision: number; pages: Array<{ id: string; title: string; depth: number }> }>(
      'POST',
      `/v1/spaces/${space}/content-sources/sync`,
      body,
    );
  const document = async () => (await t.api<Doc>('GET', '/v1/spaces/space_releases/document')).body;

  it("stores the source's pages as the space's document, and replaces them when the source changes", async () => {
    feed = [
      { tag: 'v2.0.0', name: 'Tasks', date: '2026-11-01', notes: 'Durable **tasks**.' },
      { tag: 'v1.0.0', name: 'First', date: '2026-01-01', notes: 'Hello.' },
    ];
    const first = await sync({ installationId, sourceId: 'releases' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({
      spaceId: 'space_releases',
      revision: 1,
      pages: [
        { id: 'v2.0.0', title: 'v2.0.0: Tasks', depth: 0 },
        { id: 'v1.0.0', title: 'v1.0.0: First', depth: 0 },
      ],
    });
    expect(await document()).toMatchObject({
      revision: 1,
      nodes: [
        { type: 'text', text: '# v2.0.0: Tasks\n\nReleased 2026-11-01' },
        { type: 'text', text: 'Durable **tasks**.' },
        { type: 'text', text: '# v1.0.0: First\n\nReleased 2026-01-01' },
        { type: 'text', text: 'Hello.' },
      ],
    });

    feed = [{ tag: 'v3.0.0', name: 'Sources', date: '', notes: 'Generated pages.' }];
    const second = await sync({ installationId, sourceId: 'releases' });
    expect(second.body.revision).toBe(2);
    expect((await document()).nodes).toEqual([
      { type: 'text', text: '# v3.0.0: Sources' },
      { type: 'text', text: 'Generated pages.' },
    ]);
    const logs = await t.api<{ invocations: Array<{ eventType: string }> }>(
      'GET',
      `/v1/installations/${installationId}/logs`,
    );
    const types = logs.body.invocations.map((i) => i.eventType);
    expect(types.filter((x) => x === 'content_compute_revision')).toHaveLength(2);
    expect(types.filter((x) => x === 'content_compute_document')).toHaveLength(3);
  });

  it('refuses a source the manifest does not declare, another space, and an answer it cannot store, changing nothing', async () => {
    const before = await document();
    const unknown = await sync({ installationId, sourceId: 'changelog' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/declares no content source "changelog".*releases/);
    const elsewhere = await sync({ installationId, sourceId: 'releases' }, 'space_other');
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.message).toMatch(/not installed in space "space_other"/);
    const missing = await sync({ sourceId: 'releases' });
    expect(missing.status).toBe(400);

    feed = { not: 'an array' };
    const broken = await sync({ installationId, sourceId: 'releases' });
    expect(broken.status).toBe(502);
    expect(broken.body.error.code).toBe('invalid_content_source');
    feed = [{ tag: 'v4', name: 'x', notes: 'x'.repeat(200_001) }];
    const tooLong = await sync({ installationId, sourceId: 'releases' });
    expect(tooLong.status).toBe(502);
    expect(tooLong.body.error.message).toMatch(/the document of page "v4".*at most 200000 characters/);
    expect(await document()).toEqual(before);
  });
});
