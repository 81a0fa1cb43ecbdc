import { StorageError } from './errors.js';
import { migrations as defaultMigrations, type Migration } from './schema.js';
import type { Sql } from './sql.js';

/** Advisory lock key (PostgreSQL) serializing migrations of concurrently starting hosts. */
const MIGRATION_LOCK_KEY = 'platform-host:migrations';

/**
 * Applies the migrations not yet recorded in `schema_migrations`, in order, in one transaction.
 * Idempotent. On PostgreSQL two processes starting at once serialize on an advisory lock (and the schema,
 * when given, is created under the same lock); on SQLite the BEGIN IMMEDIATE writer lock does it.
 * Returns the versions it applied.
 *
 * @example
 * const applied = await migrate(sql, { schema: 'platform' }); // [1] the first time, [] afterwards
 */
export async function migrate(
  sql: Sql,
  options: { schema?: string; migrations?: readonly Migration[] } = {},
): Promise<number[]> {
  const list = [...(options.migrations ?? defaultMigrations)].sort((a, b) => a.version - b.version);
  try {
    return await sql.transaction(async (tx) => {
      if (tx.dialect === 'postgres') {
        await tx.get('SELECT pg_advisory_xact_lock(hashtext(?))', [MIGRATION_LOCK_KEY]);
        if (options.schema) await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
      }
      await tx.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
      );
      const done = new Set(
        (await tx.all('SELECT version FROM schema_migrations')).map((r) => Number(r.version)),
      );
      const applied: number[] = [];
      for (const migration of list) {
        if (done.has(migration.version)) continue;
        const text = typeof migration.sql === 'string' ? migration.sql : migration.sql[tx.dialect];
        await tx.exec(text);
        await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
          migration.version,
          migration.name,
          Date.now(),
        ]);
        applied.push(migration.version);
      }
      return applied;
    });
  } catch (error) {
    if (error instanceof StorageError && error.code !== 'internal') throw error;
    throw new StorageError(
      'migration_failed',
      `applying database migrations failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}
