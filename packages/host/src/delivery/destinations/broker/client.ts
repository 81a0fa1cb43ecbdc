import type { AttemptError } from '../../errors.js';
import type { DestinationClient, DestinationContext, DestinationMessage } from '../types.js';
import { resolveAllowedAddress } from './address.js';
import { brokerHeaders, runBrokerAttempt } from './attempt.js';
import { type BrokerEndpoint, DEFAULT_CONNECT_TIMEOUT_MS } from './config.js';
import { ConnectionSlot } from './slot.js';

/** The part of a broker destination's configuration {@link brokerClientOpener} reads. */
export interface BrokerConnectConfig {
  endpoint: BrokerEndpoint;
  connectTimeoutMs?: number;
}

/** Where and how long a broker connection may take to open, for {@link BrokerClientParts.open}. */
export interface ConnectTarget {
  /** The endpoint host's address, checked against the address policy: connect to this one only. */
  address: string;
  /** The connect (and handshake) deadline: the configuration's `connectTimeoutMs`, or the default. */
  timeoutMs: number;
}

/** What a broker destination supplies to {@link brokerClientOpener}, each part given the saved configuration. */
export interface BrokerClientParts<Config, C> {
  /**
   * Connects to the configured broker at `to.address` (its endpoint's host, resolved and allowed by the
   * address policy) within `to.timeoutMs`, and resolves once the connection can publish; calls `lost` when
   * the connection closes on its own (see `SlotOpener`). `signal` aborts when the client is reset or closed
   * while this connection still opens.
   */
  open(config: Config, to: ConnectTarget, lost: () => void, signal: AbortSignal): Promise<C>;
  /** Closes a connection; never throws. */
  close(connection: C): Promise<void>;
  /**
   * Publishes one message on an open connection; resolves on the broker's acknowledgement. The message's
   * `headers` are already its broker headers (`brokerHeaders`): the signature and the metadata.
   */
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
 * `send` gets the connection (opening it, after the address-policy check of the endpoint's host, when
 * there is none), publishes
 * under the attempt's deadline, and drops the connection when the deadline passed first (its state is in
 * doubt). A lost connection is opened again by the next attempt.
 *
 * @example
 * const openClient = brokerClientOpener({ open: (config, { address, timeoutMs }, lost) => connect(...), close, publish, classify });
 * await openClient(config, { policy }).send(message, { timeoutMs: 10_000 });
 */
export function brokerClientOpener<Config extends BrokerConnectConfig, C>(
  parts: BrokerClientParts<Config, C>,
): (config: Config, context: DestinationContext) => DestinationClient {
  return (config, { policy }) => {
    const slot = new ConnectionSlot<C>({
      open: async (lost, signal) => {
        const address = await resolveAllowedAddress(config.endpoint.host, policy);
        const timeoutMs = config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
        return parts.open(config, { address, timeoutMs }, lost, signal);
      },
      // async: a close that throws synchronously rejects instead, as the slot expects of `close`
      close: async (connection) => parts.close(connection),
    });
    return {
      send: (message, { timeoutMs }) => {
        const withHeaders = { ...message, headers: brokerHeaders(message) };
        return runBrokerAttempt({
          timeoutMs,
          work: async (remainingMs) => parts.publish(await slot.get(), config, withHeaders, remainingMs),
          classify: parts.classify,
          onTimeout: () => slot.reset(),
        });
      },
      close: () => slot.close(),
    };
  };
}
