import { StorageError } from './errors.js';
import type { Row, Sql, SqlValue } from './sql.js';

/** Reads a TEXT column holding JSON. */
export function json<T>(row: Row, column: string): T {
  const value = row[column];
  if (typeof value !== 'string') throw corrupt(column);
  try {
    return JSON.parse(value) as T;
  } catch (error) {
    throw new StorageError('internal', `column ${column} holds invalid JSON`, { cause: error });
  }
}

/** Reads a non-null TEXT column. */
export function str(row: Row, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw corrupt(column);
  return value;
}

/** Reads a nullable TEXT column. */
export function strOrNull(row: Row, column: string): string | null {
  const value = row[column];
  return value === null || value === undefined ? null : String(value);
}

/** Reads a non-null numeric column (numbers on both drivers; int8 is parsed to number on pg). */
export function num(row: Row, column: string): number {
  const value = row[column];
  if (typeof value === 'number') return value;
  if (typeof value === 'string' || typeof value === 'bigint') return Number(value);
  throw corrupt(column);
}

/** Reads a nullable numeric column. */
export function numOrNull(row: Row, column: string): number | null {
  const value = row[column];
  return value === null || value === undefined ? null : num(row, column);
}

/** Reads an INTEGER 0/1 column as a boolean. */
export function bool(row: Row, column: string): boolean {
  return num(row, column) !== 0;
}

/** Reads one column of a row: `str`, `num`, `json`... or a function of the caller's. */
export type ColumnReader<T> = (row: Row, column: string) => T;

/** A row mapper that also knows its columns: what {@link rowMapper} returns. */
export interface RowMapper<T> {
  (row: Row): T;
  /** The columns read, in the order of the fields, as a SELECT or INSERT list (`id, created_at`). */
  readonly columns: string;
  /** A record's values in the order of `columns`, JSON columns (read by `json`) serialized. */
  values(record: T): SqlValue[];
}

/**
 * A row mapper declared field by field: each field of the record is read from the column of the same name
 * in snake_case (`createdAt` from `created_at`) by the reader given, in the order given. Its `columns` and
 * `values` serve the SELECT and INSERT of the same table, so the three cannot drift apart.
 *
 * @example
 * const toOrganization = rowMapper<OrganizationRecord>({ id: str, name: str, createdAt: num });
 * await sql.all(`SELECT ${toOrganization.columns} FROM organizations`); // id, name, created_at
 */
export function rowMapper<T>(readers: { [K in keyof T]-?: ColumnReader<T[K]> }): RowMapper<T> {
  const fields = Object.entries<ColumnReader<unknown>>(readers).map(
    ([field, read]) => [field, field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), read] as const,
  );
  const map = (row: Row): T => {
    const record: Record<string, unknown> = {};
    for (const [field, column, read] of fields) record[field] = read(row, column);
    return record as T;
  };
  return Object.assign(map, {
    columns: fields.map(([, column]) => column).join(', '),
    values: (record: T) =>
      fields.map(([field, , read]) => {
        const value = (record as Record<string, unknown>)[field];
        return (read === json ? JSON.stringify(value) : value) as SqlValue;
      }),
  });
}

/**
 * Inserts one record into `table` (the caller's constant, never input), a column per field of `mapper`.
 *
 * @example
 * await insertRecord(sql, 'audit_log', toAuditRecord, record);
 */
export async function insertRecord<T>(
  sql: Sql,
  table: string,
  mapper: RowMapper<T>,
  record: T,
): Promise<void> {
  const values = mapper.values(record);
  await sql.run(
    `INSERT INTO ${table} (${mapper.columns}) VALUES (${values.map(() => '?').join(', ')})`,
    values,
  );
}

/**
 * Adds `clause` to a WHERE list, each of its `?` bound to `value`, when `value` is given; nothing otherwise.
 *
 * @example
 * addCondition(where, values, 'created_at >= ?', range.since);
 */
export function addCondition(where: string[], values: SqlValue[], clause: string, value: SqlValue): void {
  if (value === undefined) return;
  where.push(clause);
  for (let i = clause.split('?').length - 1; i > 0; i--) values.push(value);
}

function corrupt(column: string): StorageError {
  return new StorageError('internal', `unexpected value in column ${column}`);
}

/**
 * Deletes up to `limit` rows of `table` whose `column` (a time, indexed) is before `before`, oldest first,
 * in one statement; returns how many. `table`, `key` and `column` are the caller's constants, never input.
 *
 * @example
 * const deleted = await deleteOldest(sql, { table: 'events', key: 'event_id', column: 'received_at' }, before, 1000);
 */
export async function deleteOldest(
  sql: Sql,
  { table, key, column }: { table: string; key: string; column: string },
  before: number,
  limit: number,
): Promise<number> {
  const { changes } = await sql.run(
    `DELETE FROM ${table} WHERE ${key} IN (
       SELECT ${key} FROM ${table} WHERE ${column} < ? ORDER BY ${column} LIMIT ?)`,
    [before, pruneLimit(limit)],
  );
  return changes;
}

/**
 * A prune batch size, checked: a whole number >= 1 (`StorageError('invalid')` otherwise).
 *
 * @example
 * await sql.run('DELETE ... LIMIT ?', [before, pruneLimit(limit)]);
 */
export function pruneLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1)
    throw new StorageError('invalid', `prune limit must be an integer >= 1; got ${limit}`);
  return limit;
}
