import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseManifest } from '@platform/manifest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/storage/migrate.js';
import { openPostgres } from '../src/storage/postgres.js';
import { migrations } from '../src/storage/schema.js';
import type { Sql } from '../src/storage/sql.js';
import { openSqlite } from '../src/storage/sqlite.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from './backends.js';
import { type Receiver, startReceiver, startTestHost, type TestHost } from './helpers.js';
import { hostSql, TINY_BUNDLE, tinyManifest } from './organizations.js';

interface Installation {
  id: string;
  owner?: string;
  integration: string;
}

const T0 = Date.now() - 3600_000;
const OLD_SECRET = `whsec_${randomBytes(32).toString('base64url').slice(0, 43)}`;

/** Rows as the host before organizations (schema version 12) wrote them. */
async function seed(sql: Sql, receiverUrl: string): Promise<void> {
  for (const [name, organization, visibility] of [
    ['acme-hello', 'acme', 'private'],
    ['globex-hook', 'globex', 'public'],
  ] as const) {
    const parsed = parseManifest(tinyManifest(name, visibility, organization));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    await sql.run(
      `INSERT INTO integrations (name, version, title, manifest, bundle, bundle_hash, envelope_version, signing_secret,
         secrets, first_party, dev_mode, publish_seq, created_at) VALUES (?, '1', ?, ?, ?, ?, 'v1', ?, '{}', 0, 0, 1, ?)`,
      [
        name,
        name,
        JSON.stringify(parsed.manifest),
        TINY_BUNDLE,
        createHash('sha256').update(TINY_BUNDLE).digest('hex'),
        `pss_${name}`,
        T0,
      ],
    );
  }
  const installations: Array<[string, string, string, string | null, string | null, string | null, object]> =
    [
      ['inst_old_space', 'acme-hello', 'space', 'sp-old', null, null, { channel: 'c' }],
      ['inst_old_site', 'globex-hook', 'site', null, 'site-old', null, {}],
      ['inst_old_org_acme', 'acme-hello', 'organization', null, null, 'acme', {}],
      ['inst_old_org_globex', 'globex-hook', 'organization', null, null, 'globex', {}],
      [
        'inst_old_hook',
        'webhook',
        'space',
        'sp-hook',
        null,
        null,
        { url: receiverUrl, space_content_updated: true },
      ],
    ];
  for (const [id, integration, target, space, site, organization, configuration] of installations) {
    await sql.run(
      `INSERT INTO installations (id, integration_name, target, space_id, site_id, organization_id, configuration, status,
         token_hash, external_ids, space_selection, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?, '[]', ?, ?, ?)`,
      [
        id,
        integration,
        target,
        space,
        site,
        organization,
        JSON.stringify(configuration),
        `hash_${id}`,
        JSON.stringify({
          mode: target === 'organization' ? 'all' : 'selected',
          spaces: space ? [space] : [],
        }),
        T0,
        T0,
      ],
    );
  }
  await sql.run(
    'INSERT INTO webhook_secrets (installation_id, current_secret, updated_at) VALUES (?, ?, ?)',
    ['inst_old_hook', OLD_SECRET, T0],
  );
  const body = JSON.stringify({ type: 'space_content_updated', eventId: 'evt_old_1', spaceId: 'sp-hook' });
  await sql.run(
    `INSERT INTO events (event_id, type, payload, space_id, site_id, received_at)
       VALUES ('evt_old_1', 'space_content_updated', ?, 'sp-hook', NULL, ?)`,
    [body, T0],
  );
  await sql.run(
    `INSERT INTO jobs (id, kind, installation_id, event_id, payload, state, series, attempt, run_at, lease_until,
       lease_token, last_error, created_at, updated_at, finished_at)
       VALUES ('dlv_old_1', 'deliver', 'inst_old_hook', 'evt_old_1', ?, 'succeeded', 1, 1, ?, NULL, NULL, NULL, ?, ?, ?)`,
    [JSON.stringify({ eventType: 'space_content_updated', body }), T0, T0, T0, T0],
  );
  await sql.run(
    `INSERT INTO job_attempts (job_id, series, number, started_at, duration_ms, status_code, error, response_excerpt)
       VALUES ('dlv_old_1', 1, 1, ?, 12, 200, NULL, NULL)`,
    [T0],
  );
}

/** Counts of every table the previous version wrote. */
async function counts(sql: Sql): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of [
    'integrations',
    'installations',
    'webhook_secrets',
    'events',
    'jobs',
    'job_attempts',
  ]) {
    const row = await sql.get(`SELECT COUNT(*) AS n FROM ${table}`);
    out[table] = Number(row?.n);
  }
  return out;
}

describe.each(BACKENDS)('upgrade from schema 12 (%s)', (backend) => {
  let t: TestHost;
  let receiver: Receiver;
  let dataDir = '';
  let database: TestDatabase | null = null;
  let before: Record<string, number> = {};

  beforeAll(async () => {
    receiver = await startReceiver();
    dataDir = await mkdtemp(join(tmpdir(), 'platform-upgrade-'));
    database = backend === 'postgres' ? await createTestDatabase() : null;
    const sql = database
      ? await openPostgres(database.url, { max: 1 })
      : openSqlite(join(dataDir, 'platform.db'));
    try {
      const applied = await migrate(sql, { migrations: migrations.filter((m) => m.version <= 12) });
      expect(Math.max(...applied)).toBe(12);
      await seed(sql, receiver.url);
      before = await counts(sql);
    } finally {
      await sql.close();
    }
    t = await startTestHost(
      {
        PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
        PLATFORM_DATA_DIR: dataDir,
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      backend,
    );
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every row, applies migration 13 and creates the organizations the data names', async () => {
    const sql = await hostSql(t);
    try {
      const after = await counts(sql);
      // the built-in webhook integration is published at start: one more integration row at most
      expect({ ...after, integrations: before.integrations }).toEqual(before);
      expect(after.integrations).toBeGreaterThanOrEqual(before.integrations ?? 0);
      const versions = (await sql.all('SELECT version FROM schema_migrations')).map((r) => Number(r.version));
      expect(versions).toContain(13);
    } finally {
      await sql.close();
    }
    const organizations = await t.api<{ organizations: Array<{ id: string }> }>('GET', '/v1/organizations');
    expect(organizations.body.organizations.map((o) => o.id)).toEqual(
      expect.arrayContaining(['acme', 'globex']),
    );
    const listed = await t.api<{ installations: Installation[] }>('GET', '/v1/installations');
    const byId = new Map(listed.body.installations.map((i) => [i.id, i]));
    for (const id of [
      'inst_old_space',
      'inst_old_site',
      'inst_old_org_acme',
      'inst_old_org_globex',
      'inst_old_hook',
    ]) {
      expect(byId.has(id), id).toBe(true);
    }
    const integrations = await t.api<{ integrations: Array<{ name: string }> }>('GET', '/v1/integrations');
    expect(integrations.body.integrations.map((i) => i.name)).toEqual(
      expect.arrayContaining(['acme-hello', 'globex-hook', 'webhook']),
    );
    const secret = await t.api<{ secret: string }>('GET', '/v1/installations/inst_old_hook/webhook-secret');
    expect(secret.body.secret).toBe(OLD_SECRET);
    const deliveries = await t.api<{ deliveries: Array<{ id: string; state: string }> }>(
      'GET',
      '/v1/installations/inst_old_hook/deliveries',
    );
    expect(deliveries.body.deliveries).toEqual([
      expect.objectContaining({ id: 'dlv_old_1', state: 'succeeded' }),
    ]);
  });

  it('gives organization installations their owner, and space and site ones none until the directory adopts them', async () => {
    const owner = async (id: string) =>
      (await t.api<Installation>('GET', `/v1/installations/${id}`)).body.owner;
    expect(await owner('inst_old_org_acme')).toBe('acme');
    expect(await owner('inst_old_org_globex')).toBe('globex');
    expect(await owner('inst_old_space')).toBeUndefined();
    expect(await owner('inst_old_site')).toBeUndefined();
    expect(await owner('inst_old_hook')).toBeUndefined();
    const space = await t.api<{ adoptedInstallations: number }>('PUT', '/v1/spaces/sp-old/owner', {
      organization: 'acme',
    });
    expect(space.body.adoptedInstallations).toBe(1);
    const site = await t.api<{ adoptedInstallations: number }>('PUT', '/v1/sites/site-old/owner', {
      organization: 'globex',
    });
    expect(site.body.adoptedInstallations).toBe(1);
    expect(await owner('inst_old_space')).toBe('acme');
    expect(await owner('inst_old_site')).toBe('globex');
    expect(await owner('inst_old_hook')).toBeUndefined();
  });

  it('the README walkthrough works unchanged with the operator token, and the old installation still receives', async () => {
    // 2. install the built-in webhook integration into a space
    const inst = await t.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'webhook',
      space: 'space-1',
      configuration: { url: receiver.url, space_content_updated: true },
    });
    expect(inst.status, JSON.stringify(inst.body)).toBe(201);
    // 3. its signing secret
    const secret = await t.api<{ secret: string }>('GET', `/v1/installations/${inst.body.id}/webhook-secret`);
    expect(secret.body.secret).toMatch(/^whsec_/);
    // 4. a platform event
    const accepted = await t.api<{ eventId: string }>('POST', '/v1/events', {
      type: 'space_content_updated',
      spaceId: 'space-1',
      revisionId: 'rev-1',
    });
    expect(accepted.status).toBe(202);
    const old = await t.api<{ eventId: string }>('POST', '/v1/events', {
      type: 'space_content_updated',
      spaceId: 'sp-hook',
      revisionId: 'rev-2',
    });
    expect(old.status).toBe(202);
    await receiver.waitFor(2, 20_000);
    const got = receiver.received.map((r) => JSON.parse(r.body).eventId).sort();
    expect(got).toEqual([accepted.body.eventId, old.body.eventId].sort());
    for (const request of receiver.received) expect(request.headers['x-platform-signature']).toMatch(/v1=/);
    // 5. the delivery and its attempts
    await expect
      .poll(
        async () =>
          (
            await t.api<{
              deliveries: Array<{ eventId: string; state: string; attempts: Array<{ statusCode?: number }> }>;
            }>('GET', `/v1/installations/${inst.body.id}/deliveries`)
          ).body.deliveries,
        { timeout: 20_000 },
      )
      .toEqual([
        expect.objectContaining({
          eventId: accepted.body.eventId,
          state: 'succeeded',
          attempts: [expect.objectContaining({ statusCode: 200 })],
        }),
      ]);
  });
});
