import { StorageError } from './errors.js';

/**
 * Socket errors (Node) and SQLSTATEs (PostgreSQL) that say the database is away or cannot serve this
 * connection right now, not that the request is wrong: the server is shutting down (57P01) or crashed
 * (57P02), is starting (57P03), has no connection slot left (53300), a statement was cancelled by
 * `statement_timeout` (57014), or any connection exception (class 08).
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
]);

/**
 * Messages of node-postgres errors that carry no code: the socket closed under a client (`Connection
 * terminated unexpectedly`, or `Connection terminated` when the pool ended it), no connection within
 * `connectionTimeoutMillis` (`timeout exceeded when trying to connect`, `Connection terminated due to
 * connection timeout`), no answer within `query_timeout` (`Query read timeout`), a client whose connection
 * already failed (`... is not queryable`).
 */
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout)|is not queryable/;

/**
 * The message of a pg error, for logs (never bound values: pg does not put them in messages).
 *
 * @example
 * describePgError(new Error('Connection terminated unexpectedly')); // 'Connection terminated unexpectedly'
 */
export function describePgError(error: unknown): string {
  // Node reports a refused connection to a name with several addresses as an AggregateError without a message.
  if (error instanceof AggregateError && !error.message && error.errors.length > 0)
    return describePgError(error.errors[0]);
  return error instanceof Error ? error.message || error.name : String(error);
}

/**
 * True when a pg (or socket) error means "the database cannot be reached or cannot answer now": nothing
 * about the request is wrong, and the same request later is safe (see packages/host/README.md, "Running on
 * PostgreSQL").
 *
 * @example
 * isPgUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })); // true
 */
export function isPgUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (error instanceof AggregateError) return error.errors.some(isPgUnavailable);
  return error instanceof Error && UNAVAILABLE_MESSAGES.test(error.message);
}

/**
 * Maps a pg error to a {@link StorageError} (constraint names only, never bound values): unique and
 * serialization failures are `conflict`, a missing referenced row `not_found`, a database that is away
 * `unavailable` (answered 503 with Retry-After), anything else `internal`.
 *
 * @example
 * try { await pool.query('SELECT 1'); } catch (error) { throw wrapPgError(error); }
 */
export function wrapPgError(error: unknown): unknown {
  if (error instanceof StorageError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = `PostgreSQL: ${describePgError(error)}`;
  if (code === '23505') return new StorageError('conflict', message, { cause: error });
  if (code === '23503')
    return new StorageError('not_found', `${message} (a referenced row does not exist)`, { cause: error });
  if (code === '40001' || code === '40P01')
    return new StorageError('conflict', `${message}; retry`, { cause: error });
  if (isPgUnavailable(error)) return new StorageError('unavailable', message, { cause: error });
  return new StorageError('internal', message, { cause: error });
}
