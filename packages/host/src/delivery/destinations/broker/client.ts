import type { AttemptError } from '../../errors.js';
import type { DestinationClient, DestinationMessage } from '../types.js';
import { runBrokerAttempt } from './attempt.js';
import { ConnectionSlot, type SlotOpener } from './slot.js';

/** What a broker destination supplies to {@link openBrokerClient}. */
export interface BrokerClientParts<C> extends SlotOpener<C> {
  /** Publishes one message on an open connection; resolves on the broker's acknowledgement. */
  publish(connection: C, message: DestinationMessage, remainingMs: () => number): Promise<void>;
  /** The broker's own failures; undefined for a plain network error. */
  classify(error: unknown): AttemptError | undefined;
}

/**
 * A {@link DestinationClient} over one reusable broker connection: each `send` gets the connection
 * (opening it, after the address-policy check, when there is none), publishes under the attempt's
 * deadline, and drops the connection when the deadline passed first (its state is in doubt).
 *
 * @example
 * const client = openBrokerClient({ open: (lost, signal) => connect(lost, signal), close, publish, classify });
 * await client.send(message, { timeoutMs: 10_000 });
 */
export function openBrokerClient<C>(parts: BrokerClientParts<C>): DestinationClient {
  const slot = new ConnectionSlot<C>(parts);
  return {
    send: (message, { timeoutMs }) =>
      runBrokerAttempt({
        timeoutMs,
        work: async (remainingMs) => parts.publish(await slot.get(), message, remainingMs),
        classify: parts.classify,
        onTimeout: () => slot.reset(),
      }),
    close: () => slot.close(),
  };
}
