import { StorageError } from './errors.js';
import type { QueueSignal } from './types.js';

/** A value that can be bound to a `?` placeholder. Booleans become 0/1, `undefined` becomes NULL. */
export type SqlValue = string | number | boolean | null | undefined;

/** A result row as returned by the driver: snake_case column names. */
export type Row = Record<string, unknown>;

/** The SQL dialects the storage layer speaks. */
export type Dialect = 'sqlite' | 'postgres';

/**
 * The small database adapter every repository is written against. SQL is written once with `?`
 * placeholders (translated to `$n` for PostgreSQL).
 *
 * @example
 * const row = await sql.get('SELECT value FROM settings WHERE key = ?', ['k']);
 * await sql.transaction(async (tx) => { await tx.run('DELETE FROM settings WHERE key = ?', ['k']); });
 */
export interface Sql {
  readonly dialect: Dialect;
  /** All rows of a query. */
  all(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** The first row of a query, or undefined. */
  get(sql: string, params?: readonly SqlValue[]): Promise<Row | undefined>;
  /** Runs a statement; `changes` is the number of rows written. */
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
  /** Runs one or more statements without parameters (DDL). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` in a transaction (SQLite: BEGIN IMMEDIATE, PostgreSQL: a dedicated pooled client).
   * Calling `transaction` on the handle given to `fn` opens a SAVEPOINT.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Closes the connection(s). */
  close(): Promise<void>;
  /**
   * Tells the other hosts on the database that jobs fall due (PostgreSQL: `pg_notify`, sent when the
   * transaction commits; see queue-signals.ts). Absent on SQLite (one host).
   */
  signal?(signal: QueueSignal): Promise<void>;
}

/**
 * Translates `?` placeholders to `$1, $2, ...` (PostgreSQL), leaving quoted strings and identifiers alone.
 *
 * @example
 * toDollarParams("SELECT * FROM t WHERE a = ? AND b = '?'") // "SELECT * FROM t WHERE a = $1 AND b = '?'"
 */
export function toDollarParams(sql: string): string {
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '?') {
      n += 1;
      out += `$${n}`;
    } else {
      out += ch;
    }
  }
  return out;
}

/**
 * Normalizes bound values for the drivers: booleans to 0/1, undefined to null; refuses numbers that are not
 * safe integers (fractions, NaN, ±Infinity, beyond ±2^53), which one dialect would store and the other refuse
 * (docs/contracts.md, "Numbers in storage"), and anything else.
 *
 * @example
 * normalizeParams([true, undefined, 'x']) // [1, null, 'x']
 */
export function normalizeParams(params: readonly SqlValue[] | undefined): (string | number | null)[] {
  if (!params) return [];
  return params.map((value, index) => {
    if (value === undefined || value === null) return null;
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (typeof value === 'string') return value;
    if (typeof value === 'number') {
      if (Number.isSafeInteger(value)) return value === 0 ? 0 : value; // -0 is stored as 0
      throw new StorageError(
        'invalid',
        `SQL parameter #${index + 1} is ${value}: every number is stored as a whole number within ±2^53 ` +
          '(times and durations in ms); round it where it is computed',
      );
    }
    throw new StorageError(
      'invalid',
      `SQL parameter #${index + 1} has unsupported type ${typeof value}; pass a string, number, boolean or null`,
    );
  });
}

/**
 * Builds `?, ?, ?` for an IN list of `count` values (at least one).
 *
 * @example
 * `kind IN (${placeholders(2)})` // "kind IN (?, ?)"
 */
export function placeholders(count: number): string {
  if (count < 1) throw new StorageError('invalid', 'an IN list needs at least one value');
  return Array.from({ length: count }, () => '?').join(', ');
}
