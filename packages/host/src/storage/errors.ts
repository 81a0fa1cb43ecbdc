/** Stable codes carried by every {@link StorageError}. */
export type StorageErrorCode =
  | 'conflict'
  | 'not_found'
  | 'invalid'
  | 'unavailable'
  | 'transaction_closed'
  | 'migration_failed'
  | 'internal';

/**
 * The one error type the storage layer throws. `code` is stable; `message` never contains secret values
 * or bound parameters (driver errors are wrapped, the original is kept as `cause`).
 *
 * @example
 * try { await storage.integrations.publish(record); }
 * catch (e) { if (e instanceof StorageError && e.code === 'conflict') console.log('version exists'); }
 */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  readonly code: StorageErrorCode;

  constructor(code: StorageErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * True when `error` is a {@link StorageError} with the given code.
 *
 * @example
 * if (isStorageError(e, 'not_found')) return notFound();
 */
export function isStorageError(error: unknown, code?: StorageErrorCode): error is StorageError {
  return error instanceof StorageError && (code === undefined || error.code === code);
}
