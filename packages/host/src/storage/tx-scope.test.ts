import { describe, expect, it } from 'vitest';
import { isStorageError } from './errors.js';
import { assertOutsideOwnTx, checkTransactionsOf, runInTxScope, type TxState } from './tx-scope.js';

const misuseInside = async (owner: object): Promise<unknown> => {
  const state: TxState = { owner, open: true, savepoints: 0 };
  return runInTxScope(state, async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    try {
      assertOutsideOwnTx(owner);
      return null;
    } catch (error) {
      return error;
    }
  });
};

describe('transaction checks (tx-scope)', () => {
  it("a checked owner's base handle is refused inside its own transaction, after awaits, and allowed outside", async () => {
    const owner = {};
    checkTransactionsOf(owner);
    expect(isStorageError(await misuseInside(owner), 'invalid')).toBe(true);
    expect(() => assertOutsideOwnTx(owner)).not.toThrow();
    // Another owner's transaction is no misuse of this one.
    const other = {};
    checkTransactionsOf(other);
    const state: TxState = { owner: other, open: true, savepoints: 0 };
    await runInTxScope(state, async () => expect(() => assertOutsideOwnTx(owner)).not.toThrow());
  });

  it('an owner not checked runs its transactions without a scope: nothing is refused', async () => {
    expect(await misuseInside({})).toBeNull();
  });
});
