import pg from 'pg';
import { StorageError } from './errors.js';
import { describePgError, wrapPgError } from './pg-errors.js';
import { encodeSignal, type QueueSignal, queueChannel } from './queue-signals.js';
import { SignalCoalescer } from './signal-coalescer.js';
import { normalizeParams, type Row, type Sql, type SqlValue, toDollarParams } from './sql.js';
import {
  assertOutsideOwnTx,
  assertTxOpen,
  checkTransactionsOf,
  runInTxScope,
  type TxState,
  withSavepoint,
} from './tx-scope.js';

/** Options of {@link openPostgres}. */
export interface PostgresOptions {
  /** Schema to use (created by the migrations when missing) via the connection's search_path. */
  schema?: string;
  /**
   * Throw `StorageError('invalid')` when the handle is used inside one of its own transactions, where it
   * would run outside the transaction (`checkTransactionsOf` in tx-scope.ts: it costs CPU on every
   * promise). Default true.
   */
  checkTransactions?: boolean;
  /** Pool size. Default 10. */
  max?: number;
  /**
   * Longest wait, in ms, for a connection: opening a new one, or a free one when the pool is full. Default
   * 5000. Bounded so that a request fails fast (503) while the server is away instead of hanging.
   */
  connectTimeoutMs?: number;
  /**
   * Longest run of one statement, in ms (`statement_timeout` on the server; the client gives up 1 s
   * later, for a server that stopped answering). `0`: no limit. Default 30000.
   */
  statementTimeoutMs?: number;
  /**
   * `false`: this pool's commits return before the server has flushed them to its log
   * (`synchronous_commit = off`): a crash of the database server (not of the host) may lose its last
   * fraction of a second of commits, never corrupt anything. For writes that, lost, are only done again:
   * the delivery thread's claims and attempt records (docs/architecture.md, "Claims"). Default true.
   */
  synchronousCommit?: boolean;
}

/**
 * Defaults of {@link PostgresOptions} (also the defaults of the host's `PLATFORM_PG_*` settings).
 *
 * @example
 * const poolSize = Number(process.env.PLATFORM_PG_POOL_SIZE || PG_DEFAULTS.poolSize);
 */
export const PG_DEFAULTS = { poolSize: 10, connectTimeoutMs: 5_000, statementTimeoutMs: 30_000 } as const;

/**
 * Connections each pool keeps open while idle (at most its size): enough for a quiet host's claim, attempt
 * records, target reads and an accepted group at once (packages/host/README.md, "Running on PostgreSQL").
 */
const WARM_CONNECTIONS = 4;

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
  const statementTimeoutMs = options.statementTimeoutMs ?? PG_DEFAULTS.statementTimeoutMs;
  const max = options.max ?? PG_DEFAULTS.poolSize;
  // Settings of every connection, in its start-up packet.
  const startup = [
    ...(options.schema ? [`-c search_path=${options.schema}`] : []),
    ...(options.synchronousCommit === false ? ['-c synchronous_commit=off'] : []),
  ];
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    // Connections above WARM_CONNECTIONS close after 10 s unused; those below stay open, so the first claim
    // or accept after a quiet spell does not wait for a new connection (20-50 ms on a busy machine, then a
    // parse and plan of every statement it runs: named statements are per connection).
    min: Math.min(max, WARM_CONNECTIONS),
    connectionTimeoutMillis: options.connectTimeoutMs ?? PG_DEFAULTS.connectTimeoutMs,
    // A connection whose peer vanished (host down, network cut) is noticed by TCP keepalive.
    keepAlive: true,
    ...(statementTimeoutMs > 0
      ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + 1_000 }
      : {}),
    types,
    ...(startup.length > 0 ? { options: startup.join(' ') } : {}),
  });
  // An idle client that loses its connection is discarded by the pool; without a listener Node would crash.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new StorageError(
      'unavailable',
      `cannot connect to PostgreSQL at ${where}: ${describePgError(error)}. Check that the server runs and DATABASE_URL is right`,
      { cause: error },
    );
  }
  if (options.checkTransactions ?? true) checkTransactionsOf(pool);
  return PgSql.root(pool, options.schema ?? '');
}

/** Statements this thread has sent to PostgreSQL (each thread loads its own copy of this module). */
let statementsSent = 0;

/**
 * How many statements this thread has sent to PostgreSQL so far (queries, `BEGIN`/`COMMIT`/`ROLLBACK`,
 * signals): what `GET /metrics` reports, and what the scale-out benchmark divides by deliveries.
 *
 * @example
 * const before = postgresStatementsSent();
 * await storage.jobs.claim({ ... });
 * postgresStatementsSent() - before; // 1
 */
export function postgresStatementsSent(): number {
  return statementsSent;
}

class PgSql implements Sql {
  readonly dialect = 'postgres' as const;

  constructor(
    private readonly pool: pg.Pool,
    private readonly client: pg.PoolClient | null,
    private readonly tx: TxState | null,
    /** The schema, which scopes this database's queue signals. */
    private readonly schema: string,
    /** Shared by the adapter and its transactions: at most one signal per kind and window. */
    private readonly coalescer: SignalCoalescer,
    /** In a transaction: what to call when it ends (commit or rollback). */
    private readonly ends: (() => void)[] | null,
  ) {}

  /** The adapter on a pool (outside any transaction). */
  static root(pool: pg.Pool, schema: string): PgSql {
    const notify = async (signal: QueueSignal) => {
      statementsSent++;
      await pool.query('SELECT pg_notify($1, $2)', [queueChannel(signal.kind), encodeSignal(schema, signal)]);
    };
    return new PgSql(pool, null, null, schema, new SignalCoalescer(notify), null);
  }

  async signal(signal: QueueSignal): Promise<void> {
    const admission = this.coalescer.admit(signal);
    if (!admission.send) {
      // Merged into the window's trailing signal, sent once this write is committed (or rolled back).
      if (this.ends) this.ends.push(admission.done);
      else admission.done();
      return;
    }
    await this.#query('SELECT pg_notify(?, ?)', [
      queueChannel(signal.kind),
      encodeSignal(this.schema, signal),
    ]);
  }

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
    const ends: (() => void)[] = [];
    let broken: Error | undefined;
    // A checked-out client has no listener of the pool: its connection dying between two queries (server
    // crash, restart) would be an unhandled 'error' event, which ends the process. Note it instead, and
    // give the client back as broken so the pool discards it.
    const onClientError = (error: Error) => {
      broken ??= error;
    };
    client.on('error', onClientError);
    try {
      statementsSent += 2; // BEGIN, and COMMIT or ROLLBACK
      await client.query('BEGIN').catch((error: unknown) => {
        throw wrapPgError(error);
      });
      const tx = new PgSql(this.pool, client, state, this.schema, this.coalescer, ends);
      const result = await runInTxScope(state, () => fn(tx));
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
      client.release(broken); // from here the pool's own listener takes the client's errors
      client.off('error', onClientError);
      for (const end of ends) end();
    }
  }

  async close(): Promise<void> {
    this.coalescer.close();
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
    statementsSent++;
    try {
      return raw
        ? await target.query<Row>(sql)
        : await target.query<Row>({ ...preparedStatement(sql), values: normalizeParams(params) });
    } catch (error) {
      throw wrapPgError(error);
    }
  }
}

/** Distinct statements named at most; past this, statements are sent unnamed (parsed each time). */
const MAX_NAMED_STATEMENTS = 1000;
const statements = new Map<string, { text: string; name?: string }>();

/**
 * The statement for a `?` query: translated to `$n` once, and named, so that each pooled connection
 * parses and plans it once and then only binds and executes it (pg's named prepared statements). The
 * repositories' SQL is a bounded set of texts (IN lists and multi-row inserts vary in length only).
 */
function preparedStatement(sql: string): { text: string; name?: string } {
  let statement = statements.get(sql);
  if (!statement) {
    const text = toDollarParams(sql);
    if (statements.size >= MAX_NAMED_STATEMENTS) return { text };
    statement = { text, name: `platform_${statements.size + 1}` };
    statements.set(sql, statement);
  }
  return statement;
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

export { wrapPgError };
