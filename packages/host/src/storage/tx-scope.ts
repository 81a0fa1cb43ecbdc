import { AsyncLocalStorage } from 'node:async_hooks';
import { StorageError } from './errors.js';
import type { Sql } from './sql.js';

/** State of one open transaction, shared by its handle and the async work it starts. */
export interface TxState {
  /** The adapter instance (connection owner) that opened the transaction. */
  readonly owner: object;
  open: boolean;
  savepoints: number;
}

const scope = new AsyncLocalStorage<TxState>();

/** Runs `fn` with `state` as the current transaction scope. */
export function runInTxScope<T>(state: TxState, fn: () => Promise<T>): Promise<T> {
  return scope.run(state, fn);
}

/**
 * Refuses to use the base handle of `owner` from inside one of its own open transactions: on SQLite that
 * would deadlock on the connection mutex, on PostgreSQL it would run outside the transaction.
 */
export function assertOutsideOwnTx(owner: object): void {
  const state = scope.getStore();
  if (state && state.owner === owner && state.open) {
    throw new StorageError(
      'invalid',
      'the storage was used inside its own transaction: inside storage.transaction(async (tx) => ...) use the `tx` handle, not `storage`',
    );
  }
}

/** Throws when a transaction handle is used after its transaction ended. */
export function assertTxOpen(state: TxState): void {
  if (!state.open) {
    throw new StorageError(
      'transaction_closed',
      'this transaction handle was used after its transaction committed or rolled back; use it only inside the callback',
    );
  }
}

/** Runs `fn` inside a SAVEPOINT on an open transaction handle (nested `transaction` calls). */
export async function withSavepoint<T>(tx: Sql, state: TxState, fn: (tx: Sql) => Promise<T>): Promise<T> {
  state.savepoints += 1;
  const name = `sp_${state.savepoints}`;
  await tx.exec(`SAVEPOINT ${name}`);
  try {
    const result = await fn(tx);
    await tx.exec(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    if (state.open) {
      await tx.exec(`ROLLBACK TO SAVEPOINT ${name}`);
      await tx.exec(`RELEASE SAVEPOINT ${name}`);
    }
    throw error;
  }
}
