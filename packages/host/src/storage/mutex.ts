/**
 * A minimal async mutex: callers run one at a time, in arrival order.
 *
 * @example
 * const m = new Mutex();
 * await m.run(async () => { ... exclusive ... });
 */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  /** Runs `fn` once every earlier caller has finished; resolves with its result. */
  run<T>(fn: () => Promise<T> | T): Promise<T> {
    const result = this.#tail.then(() => fn());
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
