/**
 * How a broker client opens a connection: `open` connects (checking the address policy first) and
 * resolves once the connection can publish; it calls `lost` when the connection closes on its own
 * (broker restart, network cut) so that the next attempt opens a new one.
 */
export interface SlotOpener<C> {
  /** `signal` aborts when the slot is reset or closed while this connection still opens. */
  open(lost: () => void, signal: AbortSignal): Promise<C>;
  /** Closes a connection; never throws. */
  close(connection: C): Promise<void>;
}

/**
 * One reusable broker connection shared by every attempt of a destination client: opened on first
 * use, shared while it opens (concurrent attempts wait for the same one), dropped when it is lost or
 * {@link ConnectionSlot.reset} (after a failure that leaves it in doubt, such as a timeout), and
 * opened again by the next attempt. This is the reconnect after a broker restart: no background
 * loop, no buffering of messages while disconnected.
 *
 * @example
 * const slot = new ConnectionSlot({ open: (lost) => connectBroker(lost), close: (c) => c.close() });
 * const connection = await slot.get();
 */
export class ConnectionSlot<C> {
  #pending: Promise<C> | undefined;
  #opening: AbortController | undefined;
  /** The connection `#pending` resolved to, once it did. */
  #open: C | undefined;
  #closed = false;

  constructor(private readonly opener: SlotOpener<C>) {}

  /** The open connection, or the one being opened; rejects with the opening's error. */
  get(): Promise<C> {
    if (this.#closed) return Promise.reject(new Error('The destination client is closed'));
    if (this.#pending) return this.#pending;
    const opening = new AbortController();
    const pending: Promise<C> = this.opener
      .open(() => this.#drop(pending), opening.signal)
      .then(
        (connection) => {
          if (this.#opening === opening) this.#opening = undefined;
          if (this.#pending === pending) this.#open = connection;
          // Closed or reset while opening: nobody will use it.
          else void this.opener.close(connection);
          return connection;
        },
        (error: unknown) => {
          this.#drop(pending);
          throw error;
        },
      );
    this.#pending = pending;
    this.#opening = opening;
    return pending;
  }

  /** Drops the current connection (closed once open); the next {@link get} opens a new one. */
  reset(): void {
    void this.#release();
  }

  /**
   * Closes the connection and refuses later use; idempotent. An open connection is closed before this
   * resolves; one still opening is closed as soon as it opens.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#release();
  }

  async #release(): Promise<void> {
    const open = this.#open;
    const pending = this.#pending;
    const opening = this.#opening;
    this.#pending = undefined;
    this.#open = undefined;
    this.#opening = undefined;
    if (open !== undefined) await this.opener.close(open);
    else {
      // Still opening: abort it; should it open all the same, `get`'s handler closes it.
      pending?.catch(() => {});
      opening?.abort();
    }
  }

  #drop(pending: Promise<C>): void {
    if (this.#pending !== pending) return;
    this.#pending = undefined;
    this.#open = undefined;
    this.#opening = undefined;
  }
}
