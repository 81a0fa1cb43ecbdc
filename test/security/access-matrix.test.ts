import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS } from '../../packages/host/src/access/rules.js';
import { BACKENDS } from '../../packages/host/test/backends.js';
import {
  eventually,
  type Receiver,
  startReceiver,
  startTestHost,
  type TestHost,
} from '../../packages/host/test/helpers.js';
import {
  createToken,
  hostSql,
  publishTiny,
  TINY_BUNDLE,
  tinyManifest,
} from '../../packages/host/test/organizations.js';

/**
 * Every operation of the host's own `/openapi.json`, called by each kind of principal, answers exactly
 * what the table below says (docs/security.md "Who may do what"). The table is written by hand, not
 * derived from `ACCESS`: a change of a rule must change it too. Paths name organization A's resources,
 * so B's organization token meets "another organization's resource" (404).
 */

const PRINCIPALS = [
  'operator',
  'none',
  'A',
  'A-read',
  'B',
  'A-revoked',
  'A-expired',
  'inst',
  'portal',
] as const;
type Who = (typeof PRINCIPALS)[number];

// operator: the admin token; none: no Authorization header; A: org-a, every scope; A-read: org-a with
// deliveries:read and audit:read; B: org-b, every scope; A-revoked / A-expired: org-a tokens revoked /
// expired; inst: the installation token of A's webhook installation; portal: a portal session of it.
// A number is the exact status; 2xx are real calls with valid bodies.
// biome-ignore format: a table, one route a line
const EXPECTED: Record<string, readonly number[]> = {
  //                                                              operator none  A   A-read  B  A-rev A-exp inst portal
  'GET /v1/whoami':                                               [200, 401, 200, 200, 200, 401, 401, 200, 200],
  'GET /v1/marketplace':                                          [200, 401, 200, 200, 200, 401, 401, 403, 403],
  'POST /v1/organizations':                                       [201, 401, 403, 403, 403, 401, 401, 403, 403],
  'GET /v1/organizations':                                        [200, 401, 200, 200, 200, 401, 401, 403, 403],
  'GET /v1/organizations/{organization}':                         [200, 401, 200, 200, 404, 401, 401, 403, 403],
  'GET /v1/organizations/{organization}/resources':               [200, 401, 200, 200, 404, 401, 401, 403, 403],
  'POST /v1/organizations/{organization}/tokens':                 [201, 401, 201, 403, 404, 401, 401, 403, 403],
  'GET /v1/organizations/{organization}/tokens':                  [200, 401, 200, 403, 404, 401, 401, 403, 403],
  'DELETE /v1/organizations/{organization}/tokens/{tokenId}':     [204, 401, 204, 403, 404, 401, 401, 403, 403],
  'PUT /v1/spaces/{spaceId}/owner':                               [200, 401, 403, 403, 403, 401, 401, 403, 403],
  'DELETE /v1/spaces/{spaceId}/owner':                            [204, 401, 403, 403, 403, 401, 401, 403, 403],
  'PUT /v1/sites/{siteId}/owner':                                 [200, 401, 403, 403, 403, 401, 401, 403, 403],
  'DELETE /v1/sites/{siteId}/owner':                              [204, 401, 403, 403, 403, 401, 401, 403, 403],
  // operator only; no content source is installed in the space the call names: 404
  'POST /v1/spaces/{spaceId}/content-sources/sync':               [404, 401, 403, 403, 403, 401, 401, 403, 403],
  'POST /v1/portal/sessions':                                     [201, 401, 201, 403, 404, 401, 401, 403, 403],
  'DELETE /v1/portal/sessions/{sessionId}':                       [204, 401, 204, 403, 404, 401, 401, 403, 403],
  'GET /v1/audit':                                                [200, 401, 200, 200, 200, 401, 401, 403, 403],
  // B publishing a manifest that names org-a: 403 wrong_organization
  'POST /v1/integrations':                                        [201, 401, 201, 403, 403, 401, 401, 403, 403],
  'GET /v1/integrations':                                         [200, 401, 200, 200, 200, 401, 401, 403, 403],
  'GET /v1/integrations/{name}':                                  [200, 401, 200, 200, 404, 401, 401, 403, 403],
  'DELETE /v1/integrations/{name}':                               [204, 401, 204, 403, 404, 401, 401, 403, 403],
  'GET /v1/integrations/{name}/install-link':                     [200, 401, 200, 403, 404, 401, 401, 403, 403],
  'POST /v1/integrations/{name}/install-link/rotate':             [200, 401, 200, 403, 404, 401, 401, 403, 403],
  'POST /v1/integrations/{name}/tasks':                           [201, 401, 403, 403, 403, 401, 401, 201, 403],
  'GET /v1/integrations/{name}/runs':                             [200, 401, 200, 200, 404, 401, 401, 403, 403],
  // into space sp-a, which the directory gives org-a: B gets 404 for the space
  'POST /v1/installations':                                       [201, 401, 201, 403, 404, 401, 401, 403, 403],
  'GET /v1/installations':                                        [200, 401, 200, 200, 200, 401, 401, 403, 200],
  'GET /v1/installations/{id}':                                   [200, 401, 200, 200, 404, 401, 401, 200, 200],
  'PATCH /v1/installations/{id}':                                 [200, 401, 200, 403, 404, 401, 401, 200, 200],
  'DELETE /v1/installations/{id}':                                [204, 401, 204, 403, 404, 401, 401, 403, 403],
  'POST /v1/installations/{id}/pause':                            [200, 401, 200, 403, 404, 401, 401, 403, 403],
  'POST /v1/installations/{id}/resume':                           [200, 401, 200, 403, 404, 401, 401, 403, 403],
  'GET /v1/installations/{id}/logs':                              [200, 401, 200, 200, 404, 401, 401, 403, 403],
  'POST /v1/installations/{id}/render':                           [200, 401, 200, 403, 404, 401, 401, 403, 403],
  'GET /v1/installations/{id}/webhook-secret':                    [200, 401, 200, 403, 404, 401, 401, 200, 200],
  'POST /v1/installations/{id}/webhook-secret/rotate':            [200, 401, 200, 403, 404, 401, 401, 200, 200],
  'GET /v1/installations/{id}/webhook-public-key':                [200, 401, 200, 200, 404, 401, 401, 200, 200],
  'POST /v1/installations/{id}/webhook-public-key/rotate':         [200, 401, 200, 403, 404, 401, 401, 200, 200],
  'GET /v1/installations/{id}/deliveries':                        [200, 401, 200, 200, 404, 401, 401, 403, 200],
  'GET /v1/installations/{id}/deliveries/{deliveryId}':           [200, 401, 200, 200, 404, 401, 401, 403, 200],
  'POST /v1/installations/{id}/deliveries/{deliveryId}/redeliver': [202, 401, 202, 403, 404, 401, 401, 403, 202],
  'POST /v1/installations/{id}/deliveries/redeliver':             [202, 401, 202, 403, 404, 401, 401, 403, 202],
  'POST /v1/installations/{id}/test':                             [202, 401, 202, 403, 404, 401, 401, 403, 202],
  // the endpoint is disabled before each call (CALLS): enabled by whoever may
  'POST /v1/installations/{id}/endpoint/enable':                  [200, 401, 200, 403, 404, 401, 401, 403, 200],
  'POST /v1/events':                                              [202, 401, 403, 403, 403, 401, 401, 403, 403],
  'GET /v1/status':                                               [200, 401, 403, 403, 403, 401, 401, 403, 403],
  'GET /v1/operator-events':                                      [200, 401, 403, 403, 403, 401, 401, 403, 403],
  // ?installation= A's webhook installation: B gets 404; without it, an organization token gets 400
  'GET /v1/stats/deliveries':                                     [200, 401, 200, 200, 404, 401, 401, 403, 403],
  'GET /v1/sites/{siteId}/published-scripts':                     [200, 401, 403, 403, 403, 401, 401, 403, 403],
  // no token needed: whatever is presented, the icon of the built-in webhook integration
  'GET /v1/assets/{hash}':                                        [200, 200, 200, 200, 200, 200, 200, 200, 200],
  // inst reads the document of its own space (the webhook integration has space:content:read)
  'GET /v1/spaces/{spaceId}/document':                            [200, 401, 403, 403, 403, 401, 401, 200, 403],
  'PUT /v1/spaces/{spaceId}/document':                            [200, 401, 403, 403, 403, 401, 401, 403, 403],
  // the block is rendered by A's webhook installation: its token updates it
  'PATCH /v1/spaces/{spaceId}/document/blocks/{blockId}':         [200, 401, 403, 403, 403, 401, 401, 200, 403],
  // inst is installed in sp-a, and in no site
  'GET /v1/spaces/{spaceId}':                                     [200, 401, 403, 403, 403, 401, 401, 200, 403],
  'GET /v1/sites/{siteId}':                                       [200, 401, 403, 403, 403, 401, 401, 403, 403],
};

interface OpenApiOperation {
  'x-access'?: unknown;
  description?: string;
}
interface OpenApiDoc {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** A request of the walk: its path, and its JSON body if any. */
interface Call {
  path: string;
  body?: unknown;
}

describe.each(BACKENDS)('access matrix (%s)', (backend) => {
  let t: TestHost;
  let receiver: Receiver;
  const tokens = new Map<Who, string | null>();
  let instA = '';
  let deliveryId = '';
  let assetHash = '';
  let counter = 0;
  const next = () => `${++counter}`;

  beforeAll(async () => {
    t = await startTestHost({ PLATFORM_ALLOW_PRIVATE_TARGETS: '1' }, backend);
    receiver = await startReceiver();
    for (const id of ['org-a', 'org-b']) {
      const res = await t.api('POST', '/v1/organizations', { id, name: `Organization ${id}` });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    for (const [space, organization] of [
      ['sp-a', 'org-a'],
      ['sp-b', 'org-b'],
    ]) {
      const res = await t.api('PUT', `/v1/spaces/${space}/owner`, { organization });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const all = [
      'integrations:publish',
      'installations:manage',
      'deliveries:read',
      'deliveries:redeliver',
      'secrets:manage',
      'tokens:manage',
      'portal:create',
      'audit:read',
    ] as const;
    tokens.set('none', null);
    tokens.set('A', (await createToken(t, 'org-a', 'all', all)).token);
    tokens.set('A-read', (await createToken(t, 'org-a', 'read', ['deliveries:read', 'audit:read'])).token);
    tokens.set('B', (await createToken(t, 'org-b', 'all', all)).token);
    const revoked = await createToken(t, 'org-a', 'revoked', all);
    expect((await t.api('DELETE', `/v1/organizations/org-a/tokens/${revoked.id}`)).status).toBe(204);
    tokens.set('A-revoked', revoked.token);
    // expired: its expiry moved into the past in storage before its first use (nothing cached it yet)
    const expired = await createToken(t, 'org-a', 'expired', all);
    const sql = await hostSql(t);
    try {
      const { changes } = await sql.run('UPDATE organization_tokens SET expires_at = ? WHERE id = ?', [
        Date.now() - 60_000,
        expired.id,
      ]);
      expect(changes).toBe(1);
    } finally {
      await sql.close();
    }
    tokens.set('A-expired', expired.token);

    // A's private integration, published with A's token (the manifest names no organization)
    await publishTiny(t, tinyManifest('a-hello', 'private'), tokens.get('A') ?? undefined);
    // A's webhook installation in sp-a, made by A
    const inst = await t.api<{ id: string; owner: string }>(
      'POST',
      '/v1/installations',
      {
        integration: 'webhook',
        space: 'sp-a',
        // signs with ed25519: it has a public key to read
        configuration: { url: receiver.url, space_content_updated: true, signature_scheme: 'ed25519' },
      },
      tokens.get('A') ?? undefined,
    );
    expect(inst.status, JSON.stringify(inst.body)).toBe(201);
    expect(inst.body.owner).toBe('org-a');
    instA = inst.body.id;
    tokens.set('inst', t.host.context.tokens.issue(instA));
    const portal = await t.api<{ token: string }>('POST', '/v1/portal/sessions', { installation: instA });
    expect(portal.status, JSON.stringify(portal.body)).toBe(201);
    tokens.set('portal', portal.body.token);

    // a delivery of A's installation
    expect(
      (
        await t.api('POST', '/v1/events', {
          type: 'space_content_updated',
          spaceId: 'sp-a',
          revisionId: 'r0',
        })
      ).status,
    ).toBe(202);
    deliveryId = await eventually(
      async () => {
        const res = await t.api<{ deliveries: Array<{ id: string; state: string }> }>(
          'GET',
          `/v1/installations/${instA}/deliveries`,
        );
        return res.body.deliveries.find((d) => d.state === 'succeeded')?.id;
      },
      20_000,
      "a delivery of A's installation",
    );
    // a document of sp-a with a block A's installation renders
    const saved = await t.api('PUT', '/v1/spaces/sp-a/document', documentBody());
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const webhook = await t.api<{ iconUrl: string | null }>('GET', '/v1/integrations/webhook');
    assetHash = String(webhook.body.iconUrl).split('/').pop() ?? '';
    expect(assetHash).toMatch(/^[0-9a-f]{64}$/);
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const documentBody = () => ({
    nodes: [
      { type: 'text', text: 'Intro' },
      { type: 'block', id: 'blk1', installationId: instA, componentId: 'webhook-settings', props: {} },
    ],
  });

  /** A webhook installation of org-a in sp-a to throw away (made by the operator: owned by org-a). */
  async function throwawayInstallation(paused = false): Promise<string> {
    const res = await t.api<{ id: string; owner: string }>('POST', '/v1/installations', {
      integration: 'webhook',
      space: 'sp-a',
      configuration: { url: receiver.url },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.owner).toBe('org-a');
    if (paused) expect((await t.api('POST', `/v1/installations/${res.body.id}/pause`)).status).toBe(200);
    return res.body.id;
  }

  /** The request each operation is walked with: real ids of A's resources, valid bodies, throwaways. */
  /** The owner route of a space or site no one made yet (`sp-tmp-3`, `site-tmp-4`). */
  const newOwnerPath = (collection: 'spaces' | 'sites', prefix: string) =>
    `/v1/${collection}/${prefix}-tmp-${next()}/owner`;
  const OWNER = { organization: 'org-a' };
  /** The owner route of a new space or site that organization A owns (it was just claimed). */
  const ownedPath = async (collection: 'spaces' | 'sites', prefix: string): Promise<Call> => {
    const path = newOwnerPath(collection, prefix);
    expect((await t.api('PUT', path, OWNER)).status).toBe(200);
    return { path };
  };
  const CALLS: Record<string, () => Promise<Call>> = {
    'GET /v1/whoami': async () => ({ path: '/v1/whoami' }),
    'GET /v1/marketplace': async () => ({ path: '/v1/marketplace' }),
    'POST /v1/organizations': async () => ({ path: '/v1/organizations', body: { id: `org-tmp-${next()}` } }),
    'GET /v1/organizations': async () => ({ path: '/v1/organizations' }),
    'GET /v1/organizations/{organization}': async () => ({ path: '/v1/organizations/org-a' }),
    'GET /v1/organizations/{organization}/resources': async () => ({
      path: '/v1/organizations/org-a/resources',
    }),
    'POST /v1/organizations/{organization}/tokens': async () => ({
      path: '/v1/organizations/org-a/tokens',
      body: { name: `tmp-${next()}`, scopes: ['deliveries:read'] },
    }),
    'GET /v1/organizations/{organization}/tokens': async () => ({ path: '/v1/organizations/org-a/tokens' }),
    'DELETE /v1/organizations/{organization}/tokens/{tokenId}': async () => {
      const { id } = await createToken(t, 'org-a', `tmp-${next()}`, ['audit:read']);
      return { path: `/v1/organizations/org-a/tokens/${id}` };
    },
    'PUT /v1/spaces/{spaceId}/owner': async () => ({ path: newOwnerPath('spaces', 'sp'), body: OWNER }),
    'DELETE /v1/spaces/{spaceId}/owner': () => ownedPath('spaces', 'sp'),
    'PUT /v1/sites/{siteId}/owner': async () => ({ path: newOwnerPath('sites', 'site'), body: OWNER }),
    'DELETE /v1/sites/{siteId}/owner': () => ownedPath('sites', 'site'),
    'POST /v1/portal/sessions': async () => ({ path: '/v1/portal/sessions', body: { installation: instA } }),
    'DELETE /v1/portal/sessions/{sessionId}': async () => {
      const res = await t.api<{ id: string }>('POST', '/v1/portal/sessions', { installation: instA });
      expect(res.status).toBe(201);
      return { path: `/v1/portal/sessions/${res.body.id}` };
    },
    'GET /v1/audit': async () => ({ path: '/v1/audit' }),
    'POST /v1/integrations': async () => ({
      path: '/v1/integrations',
      body: { manifest: tinyManifest(`a-tmp-${next()}`, 'private', 'org-a'), bundle: TINY_BUNDLE },
    }),
    'GET /v1/integrations': async () => ({ path: '/v1/integrations' }),
    'GET /v1/integrations/{name}': async () => ({ path: '/v1/integrations/a-hello' }),
    'DELETE /v1/integrations/{name}': async () => {
      const name = `a-gone-${next()}`;
      await publishTiny(t, tinyManifest(name, 'private', 'org-a'));
      return { path: `/v1/integrations/${name}` };
    },
    'GET /v1/integrations/{name}/install-link': async () => ({
      path: '/v1/integrations/a-hello/install-link',
    }),
    'POST /v1/integrations/{name}/install-link/rotate': async () => ({
      path: '/v1/integrations/a-hello/install-link/rotate',
    }),
    'GET /v1/integrations/{name}/runs': async () => ({ path: '/v1/integrations/a-hello/runs' }),
    'POST /v1/spaces/{spaceId}/content-sources/sync': async () => ({
      path: '/v1/spaces/sp-a/content-sources/sync',
      body: { installationId: 'inst_none', sourceId: 'pages' },
    }),
    'POST /v1/integrations/{name}/tasks': async () => ({
      path: '/v1/integrations/webhook/tasks',
      body: { installationId: instA, task: { type: 'matrix' } },
    }),
    'POST /v1/installations': async () => ({
      path: '/v1/installations',
      body: { integration: 'webhook', space: 'sp-a', configuration: { url: receiver.url } },
    }),
    'GET /v1/installations': async () => ({ path: '/v1/installations' }),
    'GET /v1/installations/{id}': async () => ({ path: `/v1/installations/${instA}` }),
    'PATCH /v1/installations/{id}': async () => ({
      path: `/v1/installations/${instA}`,
      body: { configuration: { space_content_updated: true } },
    }),
    'DELETE /v1/installations/{id}': async () => ({
      path: `/v1/installations/${await throwawayInstallation()}`,
    }),
    'POST /v1/installations/{id}/pause': async () => ({
      path: `/v1/installations/${await throwawayInstallation()}/pause`,
    }),
    'POST /v1/installations/{id}/resume': async () => ({
      path: `/v1/installations/${await throwawayInstallation(true)}/resume`,
    }),
    'GET /v1/installations/{id}/logs': async () => ({ path: `/v1/installations/${instA}/logs` }),
    'POST /v1/installations/{id}/render': async () => ({
      path: `/v1/installations/${instA}/render`,
      body: { componentId: 'webhook-settings', props: {} },
    }),
    'GET /v1/installations/{id}/webhook-secret': async () => ({
      path: `/v1/installations/${instA}/webhook-secret`,
    }),
    'POST /v1/installations/{id}/webhook-secret/rotate': async () => ({
      path: `/v1/installations/${instA}/webhook-secret/rotate`,
    }),
    'GET /v1/installations/{id}/webhook-public-key': async () => ({
      path: `/v1/installations/${instA}/webhook-public-key`,
    }),
    'POST /v1/installations/{id}/webhook-public-key/rotate': async () => ({
      path: `/v1/installations/${instA}/webhook-public-key/rotate`,
    }),
    'GET /v1/installations/{id}/deliveries': async () => ({ path: `/v1/installations/${instA}/deliveries` }),
    'GET /v1/installations/{id}/deliveries/{deliveryId}': async () => ({
      path: `/v1/installations/${instA}/deliveries/${deliveryId}`,
    }),
    'POST /v1/installations/{id}/deliveries/{deliveryId}/redeliver': async () => {
      // a delivery is redelivered once its previous series finished (409 delivery_in_progress before)
      await eventually(
        async () => {
          const res = await t.api<{ state: string }>(
            'GET',
            `/v1/installations/${instA}/deliveries/${deliveryId}`,
          );
          return ['succeeded', 'failed', 'exhausted'].includes(res.body.state);
        },
        20_000,
        'the redelivered delivery to finish',
      );
      return { path: `/v1/installations/${instA}/deliveries/${deliveryId}/redeliver` };
    },
    'POST /v1/installations/{id}/deliveries/redeliver': async () => ({
      path: `/v1/installations/${instA}/deliveries/redeliver`,
      body: { since: new Date(Date.now() - 3600_000).toISOString(), states: ['succeeded'] },
    }),
    'POST /v1/installations/{id}/test': async () => ({ path: `/v1/installations/${instA}/test`, body: {} }),
    'POST /v1/installations/{id}/endpoint/enable': async () => {
      // disabled as the delivery engine disables it (docs/contracts.md "Endpoint health")
      const now = Date.now();
      await t.host.context.storage.endpointHealth.change(instA, now, () => ({
        state: { failingSince: now, disabledAt: now, enabledAt: null },
      }));
      return { path: `/v1/installations/${instA}/endpoint/enable`, body: {} };
    },
    'POST /v1/events': async () => ({
      path: '/v1/events',
      body: { type: 'space_content_updated', spaceId: 'sp-a', revisionId: `r${next()}` },
    }),
    'GET /v1/status': async () => ({ path: '/v1/status' }),
    'GET /v1/operator-events': async () => ({ path: '/v1/operator-events' }),
    'GET /v1/stats/deliveries': async () => ({
      path: `/v1/stats/deliveries?range=day&installation=${instA}`,
    }),
    'GET /v1/sites/{siteId}/published-scripts': async () => ({ path: '/v1/sites/site-a/published-scripts' }),
    'GET /v1/assets/{hash}': async () => ({ path: `/v1/assets/${assetHash}` }),
    'GET /v1/spaces/{spaceId}/document': async () => ({ path: '/v1/spaces/sp-a/document' }),
    'GET /v1/spaces/{spaceId}': async () => ({ path: '/v1/spaces/sp-a' }),
    'GET /v1/sites/{siteId}': async () => ({ path: '/v1/sites/site-a' }),
    'PUT /v1/spaces/{spaceId}/document': async () => ({
      path: '/v1/spaces/sp-a/document',
      body: documentBody(),
    }),
    'PATCH /v1/spaces/{spaceId}/document/blocks/{blockId}': async () => ({
      path: '/v1/spaces/sp-a/document/blocks/blk1',
      body: { props: { note: `n${next()}` } },
    }),
  };

  async function call(method: string, { path, body }: Call, who: Who) {
    const token = who === 'operator' ? t.host.adminToken : tokens.get(who);
    const response = await fetch(`${t.host.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, text: await response.text() };
  }

  it('answers every operation of /openapi.json, for every principal, exactly as the table says', async () => {
    const doc = (await (await fetch(`${t.host.url}/openapi.json`)).json()) as OpenApiDoc;
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    // the table covers the whole API, and nothing the API lacks
    expect([...operations].sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(Object.keys(CALLS).sort()).toEqual(Object.keys(EXPECTED).sort());
    const mismatches: string[] = [];
    for (const key of operations) {
      const [method = ''] = key.split(' ');
      const expected = EXPECTED[key] ?? [];
      expect(expected, key).toHaveLength(PRINCIPALS.length);
      for (const [i, who] of PRINCIPALS.entries()) {
        const request = await CALLS[key]!();
        const { status, text } = await call(method, request, who);
        if (status !== expected[i]) {
          mismatches.push(`${key} as ${who}: ${status}, expected ${expected[i]}: ${text.slice(0, 300)}`);
        }
        if (status === 403 && (who === 'A-read' || who === 'B')) {
          // an organization token is told why: the kind of token, or the scope it lacks
          expect(JSON.parse(text).error.code, `${key} as ${who}`).toMatch(
            /^(forbidden|missing_scope|wrong_organization)$/,
          );
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 240_000);

  it("documents each operation's rule: x-access is ACCESS[key], with its 'Who may call' line", async () => {
    const doc = (await (await fetch(`${t.host.url}/openapi.json`)).json()) as OpenApiDoc;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const key = `${method.toUpperCase()} ${path}`;
        expect(Object.hasOwn(ACCESS, key), key).toBe(true);
        expect(operation['x-access'], key).toEqual(ACCESS[key as keyof typeof ACCESS]);
        expect(operation.description, key).toMatch(/Who may call: /);
      }
    }
  });

  it("GET /v1/stats/deliveries: an organization token must name its installation; the host-wide series is the operator's", async () => {
    const without = await call('GET', { path: '/v1/stats/deliveries' }, 'A-read');
    expect(without.status).toBe(400);
    expect(JSON.parse(without.text).error.message).toMatch(/installation=/);
    const host = await call('GET', { path: '/v1/stats/deliveries?range=week' }, 'operator');
    expect(host.status).toBe(200);
    expect(JSON.parse(host.text)).toMatchObject({ range: 'week', installationId: null, bucketSeconds: 3600 });
    expect((await call('GET', { path: '/v1/stats/deliveries?range=year' }, 'operator')).status).toBe(400);
  });

  it('refuses a missing scope with 403 missing_scope naming it, before reading the body', async () => {
    const res = await call('DELETE', { path: `/v1/installations/${instA}`, body: '{"oops' }, 'A-read');
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text).error).toMatchObject({
      code: 'missing_scope',
      details: { scope: 'installations:manage' },
    });
  });
});
