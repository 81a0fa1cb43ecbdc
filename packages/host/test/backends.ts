import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The storage backends every end-to-end suite of the host runs on. */
export const BACKENDS = ['sqlite', 'postgres'] as const;
export type Backend = (typeof BACKENDS)[number];

/**
 * Each backend with each delivery mode: `[backend, mode name, PLATFORM_DELIVERY_THREAD]`, for the suites
 * that run on both (`describe.each(BACKEND_MODES)('… (%s, %s)', (backend, _mode, thread) => …)`).
 */
export const BACKEND_MODES = BACKENDS.flatMap((backend) => [
  [backend, 'delivery thread', '1'] as const,
  [backend, 'main-thread delivery', '0'] as const,
]);

/** Where the PostgreSQL suites make their databases (a server with trust auth on loopback). */
export const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh, empty database for one suite, and how to drop it. */
export interface TestDatabase {
  /** The host's `DATABASE_URL`. */
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates a fresh PostgreSQL database (`platform_e2e_<random>`) on {@link ADMIN_DATABASE_URL}: each suite
 * sees a real, empty server, as an operator's first start does.
 *
 * @example
 * const db = await createTestDatabase();
 * const host = await startTestHost({ DATABASE_URL: db.url });
 * // ...
 * await host.close();
 * await db.drop();
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `platform_e2e_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect().catch((error: unknown) => {
    throw new Error(
      `PostgreSQL is required at ${ADMIN_DATABASE_URL} for the end-to-end suites (set TEST_DATABASE_URL): ${String(error)}`,
    );
  });
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
