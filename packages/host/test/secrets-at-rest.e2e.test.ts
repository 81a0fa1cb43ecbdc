import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseManifest } from '@platform/manifest';
import { verify } from '@platform/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installationTokens } from '../src/auth.js';
import { createSecretBox, generateKey, keyIdOf, parseKey } from '../src/secrets/index.js';
import { migrate } from '../src/storage/migrate.js';
import { openPostgres } from '../src/storage/postgres.js';
import type { Sql } from '../src/storage/sql.js';
import { openSqlite } from '../src/storage/sqlite.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from './backends.js';
import { type Receiver, startReceiver, startTestHost, type TestHost } from './helpers.js';
import { TINY_BUNDLE, tinyManifest } from './organizations.js';

/**
 * Secrets at rest (docs/security.md "Secrets at rest"), on both backends: a database written in plaintext
 * by the previous host is sealed at the first start, losing nothing (deliveries signed with the same
 * secrets, the same integration secrets, OAuth credentials and installation tokens); the rows and, on
 * SQLite, the files hold none of the plaintext; a rotation re-seals everything under the new key; a
 * host without the key refuses the database instead of running without its secrets.
 */

const plain = (label: string) => `${label}_${randomBytes(12).toString('hex')}`;
const CURRENT = `whsec_${randomBytes(32).toString('base64url').slice(0, 43)}`;
const PREVIOUS = `whsec_${randomBytes(32).toString('base64url').slice(0, 43)}`;
const SIGNING = plain('pss_signing');
const INTEGRATION_SECRET = plain('sk_integration');
const ACCESS_TOKEN = plain('oauth_access');
const REFRESH_TOKEN = plain('oauth_refresh');
const TOKEN_KEY = plain('itk');
const RENEWED_TOKEN = plain('oauth_renewed');
/** An ed25519 private key as a host between the signature schemes and encryption at rest stored it. */
const SIGNING_KEY = `whsk_${plain('ed25519')}`;
const PLAINTEXTS = [
  CURRENT,
  PREVIOUS,
  SIGNING,
  INTEGRATION_SECRET,
  ACCESS_TOKEN,
  REFRESH_TOKEN,
  TOKEN_KEY,
  SIGNING_KEY,
];
const T0 = Date.now() - 3600_000;

/** What the host before encryption at rest wrote: every secret in plaintext. */
async function seedPlaintext(sql: Sql, receiverUrl: string): Promise<void> {
  const parsed = parseManifest(tinyManifest('acme-hello', 'private'));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  await sql.run(
    `INSERT INTO integrations (name, version, title, manifest, bundle, bundle_hash, envelope_version, signing_secret,
       secrets, first_party, dev_mode, publish_seq, created_at) VALUES ('acme-hello', '1', 'acme-hello', ?, ?, ?, 'v1', ?, ?, 0, 0, 1, ?)`,
    [
      JSON.stringify(parsed.manifest),
      TINY_BUNDLE,
      createHash('sha256').update(TINY_BUNDLE).digest('hex'),
      SIGNING,
      JSON.stringify({ API_KEY: INTEGRATION_SECRET }),
      T0,
    ],
  );
  const insert = (id: string, integration: string, space: string, configuration: object) =>
    sql.run(
      `INSERT INTO installations (id, integration_name, target, space_id, site_id, organization_id, configuration, status,
         token_hash, external_ids, space_selection, created_at, updated_at)
       VALUES (?, ?, 'space', ?, NULL, NULL, ?, 'active', ?, '[]', ?, ?, ?)`,
      [
        id,
        integration,
        space,
        JSON.stringify(configuration),
        `hash_${id}`,
        JSON.stringify({ mode: 'selected', spaces: [space] }),
        T0,
        T0,
      ],
    );
  await insert('inst_oauth', 'acme-hello', 'sp-oauth', {
    channel: 'general',
    oauth_credentials: { access_token: ACCESS_TOKEN, refresh_token: REFRESH_TOKEN, expires_at: 1 },
  });
  await insert('inst_hook', 'webhook', 'sp-hook', { url: receiverUrl, space_content_updated: true });
  await sql.run(
    `INSERT INTO webhook_secrets (installation_id, current_secret, previous_secret, previous_expires_at, updated_at)
       VALUES ('inst_hook', ?, ?, ?, ?)`,
    [CURRENT, PREVIOUS, Date.now() + 3600_000, T0],
  );
  await sql.run(
    `INSERT INTO webhook_signing_keys (installation_id, private_key, public_key, created_at)
       VALUES ('inst_hook', ?, 'whpk_public', ?)`,
    [SIGNING_KEY, T0],
  );
  // the set-up event an OAuth connection's configuration edit queued, kept in the queue after it ran
  const setup = {
    type: 'installation_setup',
    eventId: 'evt_setup_old',
    installationId: 'inst_oauth',
    status: 'active',
    target: 'space',
    configuration: { channel: 'general', oauth_credentials: { access_token: ACCESS_TOKEN } },
  };
  await sql.run(
    `INSERT INTO jobs (id, kind, installation_id, event_id, payload, state, series, attempt, run_at, lease_until,
       lease_token, last_error, created_at, updated_at, finished_at)
       VALUES ('job_setup_old', 'invoke', 'inst_oauth', NULL, ?, 'succeeded', 1, 1, ?, NULL, NULL, NULL, ?, ?, ?)`,
    [JSON.stringify({ event: setup }), T0, T0, T0, T0],
  );
  await sql.run("INSERT INTO settings (key, value, updated_at) VALUES ('installation_token_key', ?, ?)", [
    TOKEN_KEY,
    T0,
  ]);
}

/** Every row of the tables that hold secrets, as text (what a dump of them holds). */
async function secretRows(sql: Sql): Promise<string> {
  const rows = await Promise.all(
    [
      'webhook_secrets',
      'webhook_signing_keys',
      'webhook_credentials',
      'integrations',
      'installations',
      'settings',
      'jobs',
    ].map((table) => sql.all(`SELECT * FROM ${table}`)),
  );
  return JSON.stringify(rows);
}

describe.each(BACKENDS)('secrets at rest (%s)', (backend) => {
  let receiver: Receiver;
  let dataDir = '';
  let database: TestDatabase | null = null;
  let t: TestHost | undefined;
  const firstKey = generateKey();
  const secondKey = generateKey();
  const idOf = (key: string) => keyIdOf(parseKey(key, 'test key'));

  const rawSql = (): Promise<Sql> | Sql =>
    database ? openPostgres(database.url, { max: 1 }) : openSqlite(join(dataDir, 'platform.db'));
  const start = (env: Record<string, string>) =>
    startTestHost(
      {
        PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
        PLATFORM_DATA_DIR: dataDir,
        ...(database ? { DATABASE_URL: database.url } : {}),
        ...env,
      },
      backend,
    );
  const stop = async () => {
    await t?.host.stop();
    t = undefined;
  };
  /** Posts an event for the webhook installation; the delivery's signature verifies with each of `secrets`. */
  const deliverSignedWith = async (secrets: string[]) => {
    const before = receiver.received.length;
    const res = await t!.api('POST', '/v1/events', {
      type: 'space_content_updated',
      spaceId: 'sp-hook',
      revisionId: `rev-${randomBytes(4).toString('hex')}`,
    });
    expect(res.status).toBe(202);
    const [delivery] = (await receiver.waitFor(before + 1, 20_000)).slice(before);
    for (const secret of secrets) {
      await expect(
        verify(delivery!.body, delivery!.headers['x-platform-signature'] as string, secret),
      ).resolves.toBeTruthy();
    }
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    dataDir = await mkdtemp(join(tmpdir(), 'platform-secrets-'));
    database = backend === 'postgres' ? await createTestDatabase() : null;
    const sql = await rawSql();
    try {
      await migrate(sql);
      await seedPlaintext(sql, receiver.url);
    } finally {
      await sql.close();
    }
  }, 60_000);
  afterAll(async () => {
    await stop();
    await receiver?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('upgrade: the first start seals every plaintext secret and loses none of them', async () => {
    // SQLite: the key is generated into the data folder; PostgreSQL: given (several hosts share it).
    t = await start(backend === 'postgres' ? { PLATFORM_SECRETS_KEY: firstKey } : {});
    const keyId = t.host.context.storage.secrets.currentKeyId;
    if (backend === 'sqlite') {
      const file = await readFile(join(dataDir, 'secrets-key'), 'utf8');
      expect(keyId).toBe(idOf(file));
    } else {
      expect(keyId).toBe(idOf(firstKey));
    }
    // deliveries are signed with the same current secret, and with the previous one during its overlap
    await deliverSignedWith([CURRENT, PREVIOUS]);
    const revealed = await t.api<{ secret: string }>('GET', '/v1/installations/inst_hook/webhook-secret');
    expect(revealed.body.secret).toBe(CURRENT);
    // the ed25519 private key is sealed, and deliveries still read it
    const target = await t.host.context.storage.webhookSecrets.deliveryTarget('inst_hook', Date.now());
    expect(target?.signingKeys).toEqual([SIGNING_KEY]);
    const integration = await t.host.context.storage.integrations.getLatest('acme-hello');
    expect(integration?.signingSecret).toBe(SIGNING);
    expect(integration?.secrets).toEqual({ API_KEY: INTEGRATION_SECRET });
    const installation = await t.api<{ configuration: Record<string, unknown> }>(
      'GET',
      '/v1/installations/inst_oauth',
    );
    expect(installation.body.configuration).toEqual({
      channel: 'general',
      oauth_credentials: { access_token: ACCESS_TOKEN, refresh_token: REFRESH_TOKEN, expires_at: 1 },
    });
    // installation tokens issued before the upgrade stay valid (same derivation key): the integration
    // saves new OAuth credentials with its token, as createOAuthHandler does
    const token = installationTokens(TOKEN_KEY).issue('inst_oauth');
    expect(t.host.context.tokens.issue('inst_oauth')).toBe(token);
    const saved = await t.api(
      'PATCH',
      '/v1/installations/inst_oauth',
      { configuration: { oauth_credentials: { access_token: RENEWED_TOKEN } } },
      token,
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const renewed = await t.api<{ configuration: Record<string, unknown> }>(
      'GET',
      '/v1/installations/inst_oauth',
    );
    expect(renewed.body.configuration.oauth_credentials).toEqual({ access_token: RENEWED_TOKEN });

    const sql = await rawSql();
    try {
      const rows = await secretRows(sql);
      // the set-up event that edit queued (and the older one) carry the configuration sealed too
      for (const secret of [...PLAINTEXTS, RENEWED_TOKEN]) expect(rows).not.toContain(secret);
      const setups = await sql.all(
        "SELECT payload FROM jobs WHERE kind = 'invoke' AND installation_id = 'inst_oauth'",
      );
      expect(setups.length).toBeGreaterThanOrEqual(2);
      for (const { payload } of setups) expect(String(payload)).toMatch(/"oauth_credentials":"enc:v1:/);
      const hook = await sql.get('SELECT current_secret, previous_secret FROM webhook_secrets');
      expect(String(hook?.current_secret)).toMatch(new RegExp(`^enc:v1:${keyId}:`));
      expect(String(hook?.previous_secret)).toMatch(new RegExp(`^enc:v1:${keyId}:`));
      const signingKey = await sql.get('SELECT private_key FROM webhook_signing_keys');
      expect(String(signingKey?.private_key)).toMatch(new RegExp(`^enc:v1:${keyId}:`));
      // the rest of a configuration stays plain (routing and the dashboard read it)
      const config = await sql.get("SELECT configuration FROM installations WHERE id = 'inst_oauth'");
      expect(JSON.parse(String(config?.configuration)).channel).toBe('general');
    } finally {
      await sql.close();
    }
  }, 60_000);

  it('a copy of the data without the key yields none of the secrets, and a host without it refuses to start', async () => {
    // secrets made by this host (never written in plaintext) are sealed too
    const made = await t!.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'webhook',
      space: 'sp-new',
      configuration: { url: receiver.url, space_content_updated: true },
    });
    expect(made.status).toBe(201);
    const fresh = (
      await t!.api<{ secret: string }>('GET', `/v1/installations/${made.body.id}/webhook-secret`)
    ).body.secret;
    const copy = await mkdtemp(join(tmpdir(), 'platform-secrets-copy-'));
    try {
      if (backend === 'sqlite') {
        await stop(); // the files as a backup of a stopped host has them
        for (const name of await readdir(dataDir)) {
          if (name.startsWith('platform.db')) await cp(join(dataDir, name), join(copy, name));
        }
        const bytes = Buffer.concat(
          await Promise.all((await readdir(copy)).map((name) => readFile(join(copy, name)))),
        );
        expect(bytes.length).toBeGreaterThan(0);
        for (const secret of [...PLAINTEXTS, fresh]) expect(bytes.includes(Buffer.from(secret))).toBe(false);
      } else {
        const sql = await rawSql();
        try {
          expect(await secretRows(sql)).not.toContain(fresh);
        } finally {
          await sql.close();
        }
        await stop();
      }
      // a host given another key (the copy without its key) does not start, and says which key it needs
      const wrong = generateKey();
      const env: Record<string, string> =
        backend === 'sqlite'
          ? { PLATFORM_DATA_DIR: copy, PLATFORM_SECRETS_KEY: wrong }
          : { PLATFORM_SECRETS_KEY: wrong };
      const storageKeyId =
        backend === 'sqlite' ? idOf(await readFile(join(dataDir, 'secrets-key'), 'utf8')) : idOf(firstKey);
      await expect(start(env)).rejects.toThrow(
        new RegExp(`sealed with key ${storageKeyId}, but this host's secrets key is ${idOf(wrong)}`),
      );
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  }, 60_000);

  it('rotation: the old key in PLATFORM_SECRETS_OLD_KEYS, the new one current: one start re-seals everything', async () => {
    const oldKey =
      backend === 'sqlite' ? (await readFile(join(dataDir, 'secrets-key'), 'utf8')).trim() : firstKey;
    t = await start({ PLATFORM_SECRETS_KEY: secondKey, PLATFORM_SECRETS_OLD_KEYS: oldKey });
    await deliverSignedWith([CURRENT, PREVIOUS]);
    await stop();
    const sql = await rawSql();
    try {
      const rows = await secretRows(sql);
      expect(rows).not.toContain(`enc:v1:${idOf(oldKey)}:`);
      for (const secret of PLAINTEXTS) expect(rows).not.toContain(secret);
      const box = createSecretBox({ current: secondKey });
      const hook = await sql.get('SELECT current_secret FROM webhook_secrets WHERE installation_id = ?', [
        'inst_hook',
      ]);
      expect(box.open(String(hook?.current_secret))).toBe(CURRENT);
    } finally {
      await sql.close();
    }
    // the old key is no longer needed; the old key alone no longer opens anything
    t = await start({ PLATFORM_SECRETS_KEY: secondKey });
    await deliverSignedWith([CURRENT, PREVIOUS]);
    expect((await t.host.context.storage.integrations.getLatest('acme-hello'))?.secrets).toEqual({
      API_KEY: INTEGRATION_SECRET,
    });
    await stop();
    await expect(start({ PLATFORM_SECRETS_KEY: oldKey })).rejects.toThrow(/PLATFORM_SECRETS_OLD_KEYS/);
  }, 90_000);
});
