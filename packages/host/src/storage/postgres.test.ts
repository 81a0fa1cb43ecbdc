import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEST_KEY_RING } from './contract/fixtures.js';
import { defineStorageContract } from './contract/harness.js';
import { isStorageError } from './errors.js';
import { migrations } from './schema.js';
import { openStorage, type Storage } from './storage.js';

// CI has PostgreSQL: when it is unreachable these tests FAIL (they never skip).
const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const admin = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
admin.on('error', () => undefined);
const schemas: string[] = [];

beforeAll(async () => {
  try {
    await admin.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `PostgreSQL is required for the storage tests but is unreachable at ${DATABASE_URL.replace(/:[^:@/]*@/, ':***@')} ` +
        `(${error instanceof Error ? error.message : String(error)}). Start it or set TEST_DATABASE_URL.`,
    );
  }
});

afterAll(async () => {
  for (const schema of schemas)
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
  await admin.end();
});

defineStorageContract('postgres', {
  async create() {
    const schema = `storage_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const opened: Storage[] = [];
    return {
      async open(secrets = TEST_KEY_RING) {
        const storage = await openStorage({
          databaseUrl: DATABASE_URL,
          schema,
          poolSize: 4,
          ...(secrets ? { secrets } : {}),
        });
        opened.push(storage);
        return storage;
      },
      async dispose() {
        await Promise.all(opened.map((s) => s.close()));
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      },
    };
  },
});

it('postgres: an unreachable server fails with a clear, password-free error', async () => {
  const error = await openStorage({ databaseUrl: 'postgres://postgres:hunter2@127.0.0.1:1/test' }).catch(
    (e) => e,
  );
  expect(isStorageError(error, 'unavailable')).toBe(true);
  expect(error.message).toContain('cannot connect to PostgreSQL at 127.0.0.1:1/test as postgres');
  expect(error.message).not.toContain('hunter2');
});

it('postgres: a bad schema name or URL is refused with an invalid error', async () => {
  const badSchema = await openStorage({ databaseUrl: DATABASE_URL, schema: 'x; DROP TABLE y' }).catch(
    (e) => e,
  );
  expect(isStorageError(badSchema, 'invalid')).toBe(true);
  const badUrl = await openStorage({ databaseUrl: 'mysql://x' }).catch((e) => e);
  expect(isStorageError(badUrl, 'invalid')).toBe(true);
});

it('postgres: two hosts opening a fresh schema at once apply the migrations exactly once', async () => {
  const schema = `storage_test_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  const open = () => openStorage({ databaseUrl: DATABASE_URL, schema, poolSize: 2 });
  const both = await Promise.all([open(), open(), open()]);
  try {
    expect(both.map((s) => s.appliedMigrations.length).sort()).toEqual([0, 0, migrations.length]);
    await both[0]!.settings.set('k', 'v');
    expect(await both[2]!.settings.get('k')).toBe('v');
  } finally {
    await Promise.all(both.map((s) => s.close()));
  }
});
