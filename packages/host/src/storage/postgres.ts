import pg from 'pg';
import { StorageError } from './errors.js';
import { normalizeParams, type Row, type Sql, type SqlValue, toDollarParams } from './sql.js';
import { assertOutsideOwnTx, assertTxOpen, runInTxScope, type TxState, withSavepoint } from './tx-scope.js';

/** Options of {@link openPostgres}. */
export interface PostgresOptions {
  /** Schema to use (created by the migrations when missing) via the connection's search_path. */
  schema?: string;
  /** Pool size. Default 10. */
  max?: number;
}

const INT8_OID = 20;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Type parsers of the pool: BIGINT (int8) columns come back as JS numbers (all our values are < 2^53). */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown;
  },
};

/**
 * Opens a PostgreSQL pool and checks that it answers. Queries use `?` placeholders (translated to `$n`);
 * a transaction takes a dedicated client from the pool.
 *
 * @example
 * const sql = await openPostgres('postgres://postgres@127.0.0.1:5432/test', { schema: 'platform' });
 * const rows = await sql.all('SELECT key FROM settings WHERE key = ?', ['k']);
 */
export async function openPostgres(databaseUrl: string, options: PostgresOptions = {}): Promise<Sql> {
  const where = describeUrl(databaseUrl);
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new StorageError(
      'invalid',
      `invalid PostgreSQL schema name "${options.schema}": use lowercase letters, digits and _, starting with a letter or _`,
    );
  }
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.max ?? 10,
    types,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client that loses its connection is discarded by the pool; without a listener Node would crash.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new StorageError(
      'unavailable',
      `cannot connect to PostgreSQL at ${where}: ${describe(error)}. Check that the server runs and DATABASE_URL is right`,
      { cause: error },
    );
  }
  return new PgSql(pool, null, null);
}

class PgSql implements Sql {
  readonly dialect = 'postgres' as const;

  constructor(
    private readonly pool: pg.Pool,
    private readonly client: pg.PoolClient | null,
    private readonly tx: TxState | null,
  ) {}

  async all(sql: string, params?: readonly SqlValue[]): Promise<Row[]> {
    return (await this.#query(sql, params)).rows;
  }

  async get(sql: string, params?: readonly SqlValue[]): Promise<Row | undefined> {
    return (await this.#query(sql, params)).rows[0];
  }

  async run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }> {
    return { changes: (await this.#query(sql, params)).rowCount ?? 0 };
  }

  async exec(sql: string): Promise<void> {
    await this.#query(sql, undefined, true);
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.tx) {
      assertTxOpen(this.tx);
      return withSavepoint(this, this.tx, fn);
    }
    assertOutsideOwnTx(this.pool);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw wrapPgError(error);
    }
    const state: TxState = { owner: this.pool, open: true, savepoints: 0 };
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await runInTxScope(state, () => fn(new PgSql(this.pool, client, state)));
      await client.query('COMMIT').catch((error: unknown) => {
        throw wrapPgError(error);
      });
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error('rollback failed');
      });
      throw error;
    } finally {
      state.open = false;
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  async #query(
    sql: string,
    params: readonly SqlValue[] | undefined,
    raw = false,
  ): Promise<pg.QueryResult<Row>> {
    if (this.tx) assertTxOpen(this.tx);
    else assertOutsideOwnTx(this.pool);
    const target = this.client ?? this.pool;
    try {
      return raw
        ? await target.query<Row>(sql)
        : await target.query<Row>(toDollarParams(sql), normalizeParams(params));
    } catch (error) {
      throw wrapPgError(error);
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

/** host:port/database (as user) of a connection string, never its password. */
function describeUrl(databaseUrl: string): string {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new StorageError(
      'invalid',
      'DATABASE_URL is not a valid URL: expected postgres://user[:password]@host[:port]/database',
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new StorageError('invalid', `DATABASE_URL must start with postgres:// (got ${url.protocol}//)`);
  }
  const user = url.username ? ` as ${decodeURIComponent(url.username)}` : '';
  return `${url.hostname}:${url.port || '5432'}${url.pathname}${user}`;
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  '57P01',
  '57P03',
]);

/** Maps a pg error to a {@link StorageError} (constraint names only, never bound values). */
export function wrapPgError(error: unknown): unknown {
  if (error instanceof StorageError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = `PostgreSQL: ${describe(error)}`;
  if (code === '23505') return new StorageError('conflict', message, { cause: error });
  if (code === '23503')
    return new StorageError('not_found', `${message} (a referenced row does not exist)`, { cause: error });
  if (code === '40001' || code === '40P01')
    return new StorageError('conflict', `${message}; retry`, { cause: error });
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) {
    return new StorageError('unavailable', message, { cause: error });
  }
  return new StorageError('internal', message, { cause: error });
}
