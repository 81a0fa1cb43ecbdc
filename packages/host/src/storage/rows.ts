import { StorageError } from './errors.js';
import type { Row } from './sql.js';

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

function corrupt(column: string): StorageError {
  return new StorageError('internal', `unexpected value in column ${column}`);
}
