import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStorageError } from './errors.js';
import { openPostgres } from './postgres.js';

// The pool's bounds (PLATFORM_PG_CONNECT_TIMEOUT_MS, PLATFORM_PG_STATEMENT_TIMEOUT_MS): a request fails
// fast as `unavailable` (answered 503) instead of hanging. CI has PostgreSQL: unreachable = FAIL.
const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A TCP server that accepts connections and never says a word: a PostgreSQL that hangs. */
let silent: Server;
let silentPort: number;
const sockets = new Set<Socket>();

beforeAll(async () => {
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentPort = (silent.address() as { port: number }).port;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

describe('PostgreSQL pool bounds', () => {
  it('a server that accepts but never answers: opening fails as unavailable after the connect timeout', async () => {
    const started = Date.now();
    const error = await openPostgres(`postgres://postgres@127.0.0.1:${silentPort}/test`, {
      connectTimeoutMs: 300,
    }).catch((e: unknown) => e);
    expect(isStorageError(error, 'unavailable')).toBe(true);
    expect((error as Error).message).toContain(
      `cannot connect to PostgreSQL at 127.0.0.1:${silentPort}/test`,
    );
    expect((error as Error).message).toMatch(/timeout/);
    expect(Date.now() - started).toBeLessThan(15_000); // bounded (300 ms asked; generous for a loaded CI)
  });

  it('a full pool: a request that waits past the connect timeout fails as unavailable', async () => {
    const sql = await openPostgres(DATABASE_URL, { max: 1, connectTimeoutMs: 300 });
    try {
      let release: () => void = () => undefined;
      const held = sql.transaction(
        (tx) =>
          new Promise<void>((resolve) => {
            release = resolve;
            void tx.get('SELECT 1');
          }),
      );
      await new Promise((resolve) => setTimeout(resolve, 100)); // the one connection is taken
      const error = await sql.get('SELECT 1 AS one').catch((e: unknown) => e);
      expect(isStorageError(error, 'unavailable')).toBe(true);
      expect((error as Error).message).toContain('timeout exceeded when trying to connect');
      release();
      await held;
      expect(await sql.get('SELECT 1 AS one')).toEqual({ one: 1 }); // and the pool serves again
    } finally {
      await sql.close();
    }
  });

  it('a statement past the statement timeout is cancelled by the server and fails as unavailable', async () => {
    const sql = await openPostgres(DATABASE_URL, { max: 2, statementTimeoutMs: 200 });
    try {
      const error = await sql.get('SELECT pg_sleep(5)').catch((e: unknown) => e);
      expect(isStorageError(error, 'unavailable')).toBe(true);
      expect((error as Error).message).toContain('canceling statement due to statement timeout');
      expect(await sql.get('SELECT 2 AS two')).toEqual({ two: 2 });
    } finally {
      await sql.close();
    }
  });

  it('the statement timeout is 30 s by default, and 0 means no limit', async () => {
    for (const [statementTimeoutMs, shown] of [
      [undefined, '30s'],
      [0, '0'],
    ] as const) {
      const sql = await openPostgres(DATABASE_URL, {
        max: 1,
        ...(statementTimeoutMs === undefined ? {} : { statementTimeoutMs }),
      });
      try {
        expect(await sql.get('SHOW statement_timeout')).toEqual({ statement_timeout: shown });
      } finally {
        await sql.close();
      }
    }
  });

  it('synchronousCommit: false sets synchronous_commit off on every connection of the pool (default on)', async () => {
    for (const [synchronousCommit, shown] of [
      [undefined, 'on'],
      [false, 'off'],
    ] as const) {
      const sql = await openPostgres(DATABASE_URL, {
        max: 3,
        schema: 'public',
        ...(synchronousCommit === undefined ? {} : { synchronousCommit }),
      });
      try {
        // Three at once: three connections of the pool, each with the setting (and the schema beside it).
        const rows = await Promise.all(
          [1, 2, 3].map(() =>
            sql.get(
              "SELECT current_setting('synchronous_commit') AS sync, current_setting('search_path') AS path, pg_sleep(0.05)::text",
            ),
          ),
        );
        for (const row of rows) expect(row).toMatchObject({ sync: shown, path: 'public' });
      } finally {
        await sql.close();
      }
    }
  });
});

describe('PostgreSQL pool: warm connections', () => {
  it('keeps 4 connections open past the 10 s idle timeout, closes the others', async () => {
    const name = `platform_warm_${process.pid}_${Date.now()}`;
    const sql = await openPostgres(`${DATABASE_URL}?application_name=${name}`, { max: 8 });
    const admin = await openPostgres(DATABASE_URL, { max: 1 });
    const open = async () =>
      Number(
        (await admin.get('SELECT COUNT(*) AS n FROM pg_stat_activity WHERE application_name = ?', [name]))?.n,
      );
    try {
      // Eight statements at once: the pool opens eight connections.
      await Promise.all(Array.from({ length: 8 }, () => sql.get('SELECT pg_sleep(0.2)')));
      expect(await open()).toBe(8);
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      expect(await open()).toBe(4);
    } finally {
      await sql.close();
      await admin.close();
    }
  }, 20_000);
});
