/**
 * Messages between the host's main thread and the delivery worker thread (thread-entry.ts).
 * Plain data only (structured clone).
 */
import type { HostConfig } from '../../config.js';
import type { KeyRing } from '../../secrets/index.js';
import type { JobRecord, PostgresPoolSettings, SqliteSynchronous } from '../../storage/index.js';

/**
 * Where the worker opens its own storage handle: the same SQLite file (sharing the main thread's write
 * lock, `writerLock.buffer` is a SharedArrayBuffer, with a slot of its own) or the same PostgreSQL database;
 * with the host's key ring, which opens the signing secrets it reads (src/secrets/README.md).
 */
export type DeliveryStorageOptions = (
  | {
      sqlitePath: string;
      writerLock?: { buffer: SharedArrayBuffer; slot: number };
      synchronous?: SqliteSynchronous;
    }
  | ({ databaseUrl: string; synchronousCommit?: boolean } & PostgresPoolSettings)
) & { secrets?: KeyRing; checkTransactions?: boolean };

/** `workerData` of the delivery worker. */
export interface DeliveryThreadData {
  config: Pick<
    HostConfig,
    | 'deliveryTimeoutMs'
    | 'deliveryConcurrency'
    | 'deliveryConcurrencyPerInstallation'
    | 'allowPrivateTargets'
    | 'queuePollMs'
    | 'tracing'
    | 'endpointDisableAfterMs'
    | 'operatorEvents'
  >;
  storage: DeliveryStorageOptions;
  /** Host version, for `User-Agent: Platform-Webhooks/<version>`. */
  version: string;
  /** The engine's free slots, shared with the main thread (`DeliverySlots`); none: no hand-over. */
  slots?: SharedArrayBuffer;
}

/** An error as sent across threads (`code` survives, unlike with a cloned `Error`). */
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
}

/** Main thread → worker. */
export type ToDeliveryThread =
  | { type: 'notify' }
  /** `deliver` jobs the main thread inserted leased to this worker, each holding a slot it took. */
  | { type: 'adopt'; jobs: JobRecord[]; routingEpoch?: number | undefined }
  /** A scrape of `GET /metrics`: answer with the engine's metrics (text), quoting `id`. */
  | { type: 'metrics'; id: number }
  | { type: 'stop' };

/** Worker → main thread. */
export type FromDeliveryThread =
  | { type: 'ready' }
  | { type: 'failed'; error: SerializedError }
  | { type: 'log'; level: 'error' | 'warn' | 'info'; message: string; fields: Record<string, unknown> }
  /** The fair share marked an installation slow (its deliveries are then not handed over), or no longer. */
  | { type: 'slow'; installationId: string; slow: boolean }
  /** The answer to a `metrics` request: the delivery engine's registry in Prometheus text. */
  | { type: 'metrics'; id: number; text: string }
  | { type: 'stopped' };

/**
 * Turns an error into plain data for `postMessage`.
 *
 * @example
 * port.postMessage({ type: 'failed', error: serializeError(error) });
 */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      name: error.name,
      message: error.message,
      ...(error.stack === undefined ? {} : { stack: error.stack }),
      ...(typeof code === 'string' ? { code } : {}),
    };
  }
  return { name: 'Error', message: String(error) };
}

/**
 * Rebuilds an `Error` (for pino's `err` serializer) from {@link serializeError}'s output.
 *
 * @example
 * logger.error({ err: deserializeError(message.error) }, 'delivery worker failed');
 */
export function deserializeError(data: SerializedError): Error {
  const error = new Error(data.message);
  error.name = data.name;
  if (data.stack !== undefined) error.stack = data.stack;
  if (data.code !== undefined) Object.assign(error, { code: data.code });
  return error;
}
