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

/** The adapters (connection owners) whose transactions are checked ({@link checkTransactionsOf}). */
const checked = new WeakSet<object>();

/**
 * Checks the transactions of `owner` (an adapter's connection owner) for misuse: its base handle used
 * inside one of its own open transactions throws ({@link assertOutsideOwnTx}). The check follows each
 * transaction through its awaits with an `AsyncLocalStorage`, and once one is in use Node.js 20 runs
 * hooks on every promise of the process: about a tenth of the host's CPU per delivery in a burst
 * (docs/benchmarks.md, "Transactions checked only where asked"). So the adapters check by default (the
 * storage tests), and the host only when `PLATFORM_CHECK_TRANSACTIONS` says so (on by default under
 * `NODE_ENV=test` or `development`).
 *
 * @example
 * if (options.checkTransactions ?? true) checkTransactionsOf(shared);
 */
export function checkTransactionsOf(owner: object): void {
  checked.add(owner);
}

/** Runs `fn` with `state` as the current transaction scope (where its owner is checked). */
export function runInTxScope<T>(state: TxState, fn: () => Promise<T>): Promise<T> {
  return checked.has(state.owner) ? scope.run(state, fn) : fn();
}

/**
 * Refuses to use the base handle of `owner` from inside one of its own open transactions: on SQLite that
 * would deadlock on the connection mutex, on PostgreSQL it would run outside the transaction. Only for
 * an owner whose transactions are checked ({@link checkTransactionsOf}).
 */
export function assertOutsideOwnTx(owner: object): void {
  if (!checked.has(owner)) return;
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
