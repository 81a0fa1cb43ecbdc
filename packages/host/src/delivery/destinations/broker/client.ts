import type { AddressPolicy } from '../../../net/index.js';
import type { AttemptError } from '../../errors.js';
import type { DestinationClient, DestinationContext, DestinationMessage } from '../types.js';
import { runBrokerAttempt } from './attempt.js';
import { ConnectionSlot } from './slot.js';

/** What a broker destination supplies to {@link brokerClientOpener}, each part given the saved configuration. */
export interface BrokerClientParts<Config, C> {
  /**
   * Connects to the configured broker, checking the address against `policy` first, and resolves once the
   * connection can publish; calls `lost` when the connection closes on its own (see `SlotOpener`).
   * `signal` aborts when the client is reset or closed while this connection still opens.
   */
  open(config: Config, policy: AddressPolicy, lost: () => void, signal: AbortSignal): Promise<C>;
  /** Closes a connection; never throws. */
  close(connection: C): Promise<void>;
  /** Publishes one message on an open connection; resolves on the broker's acknowledgement. */
  publish(
    connection: C,
    config: Config,
    message: DestinationMessage,
    remainingMs: () => number,
  ): Promise<void>;
  /** The broker's own failures; undefined for a plain network error. */
  classify(error: unknown): AttemptError | undefined;
}

/**
 * The `open` of a broker destination: each client it opens holds one reusable broker connection; each
 * `send` gets the connection (opening it, after the address-policy check, when there is none), publishes
 * under the attempt's deadline, and drops the connection when the deadline passed first (its state is in
 * doubt). A lost connection is opened again by the next attempt.
 *
 * @example
 * const openClient = brokerClientOpener({ open: (config, policy, lost, signal) => connect(...), close, publish, classify });
 * await openClient(config, { policy }).send(message, { timeoutMs: 10_000 });
 */
export function brokerClientOpener<Config, C>(
  parts: BrokerClientParts<Config, C>,
): (config: Config, context: DestinationContext) => DestinationClient {
  return (config, { policy }) => {
    const slot = new ConnectionSlot<C>({
      open: (lost, signal) => parts.open(config, policy, lost, signal),
      // async: a close that throws synchronously rejects instead, as the slot expects of `close`
      close: async (connection) => parts.close(connection),
    });
    return {
      send: (message, { timeoutMs }) =>
        runBrokerAttempt({
          timeoutMs,
          work: async (remainingMs) => parts.publish(await slot.get(), config, message, remainingMs),
          classify: parts.classify,
          onTimeout: () => slot.reset(),
        }),
      close: () => slot.close(),
    };
  };
}
