import { describe, expect, it } from 'vitest';
import { isStorageError, StorageError } from './errors.js';
import { isPgUnavailable, wrapPgError } from './pg-errors.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('wrapPgError', () => {
  it('classifies every way of "the server is away" as unavailable (answered 503, retried later)', () => {
    const away = [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('connect ETIMEDOUT 10.0.0.1:5432', 'ETIMEDOUT'),
      withCode('getaddrinfo ENOTFOUND db', 'ENOTFOUND'),
      withCode('write EPIPE', 'EPIPE'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('terminating connection because of crash of another server process', '57P02'),
      withCode('the database system is starting up', '57P03'),
      withCode('the database system is shutting down', '57P03'),
      withCode('sorry, too many clients already', '53300'),
      withCode('canceling statement due to statement timeout', '57014'),
      withCode('connection failure', '08006'),
      withCode('server closed the connection unexpectedly', '08003'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      new Error('Client has encountered a connection error and is not queryable'),
      // Node: a name with several addresses (localhost) refused on each of them.
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''),
    ];
    for (const error of away) {
      expect(isPgUnavailable(error), error.message).toBe(true);
      const wrapped = wrapPgError(error);
      expect(isStorageError(wrapped, 'unavailable'), error.message).toBe(true);
      expect((wrapped as StorageError).cause).toBe(error);
    }
    expect((wrapPgError(away.at(-1)) as StorageError).message).toBe(
      'PostgreSQL: connect ECONNREFUSED ::1:5432',
    );
  });

  it('keeps conflicts, missing references and real faults apart from unavailability', () => {
    expect(isStorageError(wrapPgError(withCode('duplicate key', '23505')), 'conflict')).toBe(true);
    expect(isStorageError(wrapPgError(withCode('could not serialize', '40001')), 'conflict')).toBe(true);
    expect(isStorageError(wrapPgError(withCode('violates foreign key', '23503')), 'not_found')).toBe(true);
    for (const error of [
      withCode('invalid input syntax for type bigint: "1.5"', '22P02'),
      withCode('relation "jobs" does not exist', '42P01'),
      withCode('syntax error at or near "SELEC"', '42601'),
      new Error('Cannot use a pool after calling end on the pool'),
      new TypeError('x is not a function'),
    ]) {
      expect(isPgUnavailable(error), error.message).toBe(false);
      expect(isStorageError(wrapPgError(error), 'internal'), error.message).toBe(true);
    }
  });

  it('passes a StorageError through unchanged', () => {
    const error = new StorageError('transaction_closed', 'closed');
    expect(wrapPgError(error)).toBe(error);
  });
});
