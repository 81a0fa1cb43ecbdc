import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { generateKey, type KeyRing } from '../../secrets/index.js';
import { migrate } from '../migrate.js';
import { openPostgres } from '../postgres.js';
import type { CreateInstallationInput } from '../repos/installations.js';
import type { PublishInput } from '../repos/integrations.js';
import type { InvocationLogInput } from '../repos/invocation-logs.js';
import type { EnqueueInput } from '../repos/jobs-api.js';
import type { Sql } from '../sql.js';
import { openSqlite } from '../sqlite.js';
import type { Storage } from '../storage.js';

/** Shared fixtures of the storage contract suite: the contracts import these, harness.ts imports the contracts. */

/**
 * One empty database; `open()` may be called several times for independent Storage instances on it.
 * Storages are opened with {@link TEST_KEY_RING} (as the host opens its own), unless `secrets` says
 * otherwise (`null`: without a key, as tools and older hosts see the database).
 */
export interface TestDatabase {
  open(secrets?: KeyRing | null): Promise<Storage>;
  dispose(): Promise<void>;
}

/** The key ring the contract suite's storages seal with by default. */
export const TEST_KEY_RING: KeyRing = { current: generateKey() };

/** A backend under test: makes a fresh empty database per test. */
export interface Backend {
  create(): Promise<TestDatabase>;
}

/** What every contract test gets: the storage of a fresh database, and a way to open more on it. */
export interface Ctx {
  storage: Storage;
  db: TestDatabase;
}

/** A unique suffix. */
export function uid(): string {
  return randomBytes(6).toString('hex');
}

/** A publishable integration record. */
export function integrationInput(overrides: Partial<PublishInput> = {}): PublishInput {
  return {
    name: 'hello',
    version: '1.0.0',
    title: 'Hello',
    manifest: { name: 'hello', scopes: ['space:content:read'], nested: { list: [1, 2] } },
    bundle: 'export default { fetch() {} };',
    bundleHash: 'abc123',
    envelopeVersion: 'v1',
    signingSecret: 'sig_secret',
    secrets: { CLIENT_ID: 'cid' },
    firstParty: false,
    devMode: false,
    ...overrides,
  };
}

/** An installation to create (active space installation by default). */
export function installationInput(overrides: Partial<CreateInstallationInput> = {}): CreateInstallationInput {
  return {
    integrationName: 'hello',
    target: 'space',
    spaceId: 'space_1',
    status: 'active',
    tokenHash: `hash_${uid()}`,
    ...overrides,
  };
}

/** Creates the default installation (see {@link installationInput}) and returns its id. */
export async function setup(storage: Storage): Promise<string> {
  return (await storage.installations.create(installationInput())).id;
}

/**
 * Queue inputs: one `deliver` job of `installationId` (empty payload) due at each of `runAts`.
 *
 * @example
 * const [a, b] = await storage.jobs.enqueue(deliveries(installationId, 0, 0));
 */
export function deliveries(installationId: string, ...runAts: number[]): EnqueueInput[] {
  return runAts.map((runAt) => ({ kind: 'deliver', installationId, payload: {}, runAt }));
}

/** A valid invocation log of `inst_1` created at `createdAt`, with overrides. */
export function invocationLogInput(
  createdAt: number,
  overrides: Partial<InvocationLogInput> = {},
): InvocationLogInput {
  return {
    installationId: 'inst_1',
    integrationName: 'hello',
    eventType: 'fetch',
    eventId: null,
    status: 200,
    durationMs: 1,
    lines: [],
    createdAt,
    ...overrides,
  };
}

/**
 * A migrated SQLite database in a new temporary folder (`prefix` names it); `remove()` closes it and
 * deletes the folder.
 *
 * @example
 * const { sql, remove } = await migratedSqlite('platform-plans-');
 */
export async function migratedSqlite(prefix: string): Promise<{ sql: Sql; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const sql = openSqlite(join(dir, 'p.db'));
  const remove = async () => {
    await sql.close();
    await rm(dir, { recursive: true, force: true });
  };
  await migrate(sql);
  return { sql, remove };
}

/** The PostgreSQL database the tests use (`TEST_DATABASE_URL`, else the machine's `test` database). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A migrated database of `dialect`: SQLite in a temporary folder ({@link migratedSqlite}), PostgreSQL in
 * a schema of its own on {@link TEST_DATABASE_URL}; `remove()` closes it and drops what it made.
 *
 * @example
 * const { sql, remove } = await migratedDatabase('postgres', 'queue_home');
 */
export async function migratedDatabase(
  dialect: Sql['dialect'],
  prefix: string,
): Promise<{ sql: Sql; remove: () => Promise<void> }> {
  if (dialect === 'sqlite') return migratedSqlite(`${prefix}-`);
  const schema = `${prefix}_${uid()}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const sql = await openPostgres(TEST_DATABASE_URL, { schema, max: 2 });
  const remove = async () => {
    await sql.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  };
  await migrate(sql, { schema });
  return { sql, remove };
}
