import type { Dispatcher } from 'undici';
import type { AddressPolicy } from '../../net/index.js';
import type { AttemptResult, SendWebhookInput } from '../sender.js';
import type { DeliverySigning } from '../signing.js';

/**
 * The destination seam (docs/architecture.md "Destinations"): what webhook delivery needs of a place it
 * delivers to. HTTP is one destination; message brokers are others. A destination is one folder under
 * `delivery/destinations/` and one entry in the registry.
 *
 * One attempt's outcome is an {@link AttemptResult}, recorded in the attempt log as for HTTP: a
 * broker's acknowledgement is `acknowledged: true` (no HTTP status), a failure is `error` with a
 * stable code (`connection_refused`, `timeout`, `broker_unavailable`, `broker_rejected`,
 * `target_blocked`, ...), classified retryable or not by the delivery policy.
 */
export interface DestinationMessage {
  /** The event JSON, byte-identical on every attempt. */
  body: string;
  eventId: string;
  eventType: string;
  /** Stable across the retries of a delivery. */
  deliveryId: string;
  /** 1-based attempt number. */
  attempt: number;
  /**
   * For a client that signs each attempt itself ({@link DestinationClient.signsEachAttempt}: HTTP), the
   * endpoint's own headers (custom headers, static `Authorization`); for any other, the signature and
   * metadata headers as HTTP would send them (a broker sends them as message headers).
   */
  headers: Readonly<Record<string, string>>;
  /**
   * The delivery's active signing secrets and scheme, for a destination that signs each attempt itself:
   * HTTP (`sendWebhook` signs with the attempt's own timestamp, as it always did). Brokers send `headers`.
   */
  signing?: { secrets: readonly string[]; scheme?: DeliverySigning };
  /** The attempt's W3C trace context (tracing on), for a client that signs itself (others have it in `headers`). */
  traceparent?: string;
  /** An `Authorization` fetched from elsewhere (an endpoint's OAuth2 token), renewed once after a 401 (HTTP). */
  authorization?: RenewableAuthorization;
}

/** A renewable `Authorization` header value (an OAuth2 client-credentials token). */
export interface RenewableAuthorization {
  /** The header value to send (cached while valid). Rejects when none can be had. */
  current(): Promise<string>;
  /** A new value, after the receiver refused the current one (401). */
  renew(): Promise<string>;
}

/** Where a destination's connection goes, checked against the address policy before connecting. */
export interface DestinationAddress {
  host: string;
  port: number;
}

/** An open connection of one installation's destination; reused across attempts. */
export interface DestinationClient {
  /**
   * The client signs each attempt itself, with the attempt's own timestamp (HTTP): it is given the
   * endpoint's headers and the signing secrets, not the signed headers.
   */
  readonly signsEachAttempt?: boolean;
  /** One attempt with a deadline. Never throws: failures are results. */
  send(message: DestinationMessage, options: { timeoutMs: number }): Promise<AttemptResult>;
  /** Closes the connection; idempotent. */
  close(): Promise<void>;
}

/**
 * What a destination's client is opened with: the address policy (a private address only where the
 * operator allows it), and for HTTP the engine's guarded dispatcher and `User-Agent` version.
 */
export interface DestinationContext {
  policy: AddressPolicy;
  /** A guarded dispatcher (`createGuardedDispatcher`); HTTP only, other destinations connect their own way. */
  dispatcher?: Dispatcher;
  /** For `User-Agent: Platform-Webhooks/<version>` (HTTP). */
  userAgentVersion?: string;
  /** Wall clock in ms for `startedAt` and the signature's `t` (HTTP). Default `Date.now`. */
  now?: () => number;
  /** The HTTP sender (injectable in tests). Default `sendWebhook`. */
  send?: (input: SendWebhookInput) => Promise<AttemptResult>;
}

/** A kind of destination: its configuration, validated when saved, and how to open a client. */
export interface Destination<Config> {
  /** Stable name stored with the installation's configuration (`http`, `rabbitmq`, `nats`, `redis-streams`). */
  kind: string;
  /** Parses the saved configuration; a bad one throws a zod error naming the field. */
  parse(config: unknown): Config;
  /** A description safe for logs and errors: no credentials. */
  describe(config: Config): string;
  /** The network addresses the destination connects to (checked against the address policy). */
  addresses(config: Config): DestinationAddress[];
  /** Opens a client; connection failures come back from `send`, not from here. */
  open(config: Config, context: DestinationContext): DestinationClient;
}
