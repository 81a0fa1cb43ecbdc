import { Redis } from 'ioredis';
import type { AttemptError } from '../../errors.js';
import { BROKER_ERROR_CODES, brokerClientOpener, brokerError, type ConnectTarget } from '../broker/index.js';
import type { DestinationMessage } from '../types.js';
import type { RedisStreamsConfig } from './config.js';

/**
 * The fields of each stream entry, in this order.
 *
 * @example
 * const [, fields] = (await redis.xrange(key, '-', '+'))[0]; // ['body', '{...}', 'event_id', 'evt_1', ...]
 */
export const REDIS_STREAM_FIELDS = [
  'body',
  'event_id',
  'event_type',
  'delivery_id',
  'attempt',
  'headers',
] as const;

async function openConnection(
  config: RedisStreamsConfig,
  to: ConnectTarget,
  lost: () => void,
  signal: AbortSignal,
): Promise<Redis> {
  const { endpoint } = config;
  const connectTimeoutMs = to.timeoutMs;
  const redis = new Redis({
    host: to.address,
    port: endpoint.port,
    db: config.db,
    connectionName: 'platform-host',
    // One connection to the checked address: no reconnect loop of the library's own (the next attempt
    // opens a new connection) and no queue of commands while disconnected (they fail at once).
    lazyConnect: true,
    retryStrategy: () => null,
    reconnectOnError: () => false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: connectTimeoutMs,
    ...(endpoint.tls ? { tls: { servername: endpoint.host } } : {}),
    ...(endpoint.username === undefined ? {} : { username: endpoint.username }),
    ...(endpoint.password === undefined ? {} : { password: endpoint.password }),
  });
  // The command in flight gets its own error; a failed connect rejects with "Connection is closed."
  // only, so the socket's error (ECONNREFUSED, TLS...) is kept to report instead.
  let socketError: Error | undefined;
  redis.on('error', (error: Error) => {
    socketError ??= error;
  });
  // The ready check (INFO, AUTH, SELECT) is bounded too: a server that accepts and never answers.
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${connectTimeoutMs} ms`)), connectTimeoutMs);
    onAbort = () => reject(new Error('connection abandoned'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const connecting = redis.connect();
  connecting.catch(() => {}); // Lost the race to `stop`: its failure is nobody's.
  try {
    await Promise.race([connecting, stop]);
  } catch (error) {
    redis.disconnect();
    throw socketError ?? error;
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
  redis.once('end', lost);
  return redis;
}

async function append(redis: Redis, config: RedisStreamsConfig, message: DestinationMessage): Promise<void> {
  const cap =
    config.maxLen === undefined
      ? []
      : config.approximate
        ? ['MAXLEN', '~', config.maxLen]
        : ['MAXLEN', config.maxLen];
  const fields = [
    message.body,
    message.eventId,
    message.eventType,
    message.deliveryId,
    String(message.attempt),
    JSON.stringify(message.headers),
  ];
  const args = REDIS_STREAM_FIELDS.flatMap((name, index) => [name, fields[index] ?? '']);
  await redis.xadd(config.key, ...cap, '*', ...args);
}

const UNAVAILABLE = /^(LOADING|OOM|MASTERDOWN|READONLY|BUSY|TRYAGAIN|CLUSTERDOWN|MISCONF)\b/;

/**
 * Redis's failures; undefined for a plain network error (refused, reset, DNS, target blocked...).
 *
 * @example
 * classifyRedisError(new Error('Connection is closed.'))?.code; // 'broker_unavailable'
 */
export function classifyRedisError(error: unknown): AttemptError | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.name === 'ReplyError') {
    if (UNAVAILABLE.test(error.message)) {
      return brokerError(BROKER_ERROR_CODES.unavailable, 'Redis cannot take the entry now', error);
    }
    // WRONGTYPE (the key holds another type), NOAUTH / WRONGPASS, NOPERM, ERR (a bad database...).
    return brokerError(BROKER_ERROR_CODES.rejected, 'Redis refused the entry', error);
  }
  if ('code' in error && typeof error.code === 'string') return undefined;
  // "Connection is closed.", "Stream isn't writeable...": the connection went away under the command.
  return brokerError(BROKER_ERROR_CODES.unavailable, 'Redis did not store the entry', error);
}

/**
 * Opens a Redis Streams client: one connection, opened on the first attempt (after the address policy
 * check) and again after it is lost.
 *
 * @example
 * const client = openRedisStreamsClient(config, { policy });
 * await client.send(message, { timeoutMs: 10_000 }); // { acknowledged: true, ... }
 */
export const openRedisStreamsClient = brokerClientOpener<RedisStreamsConfig, Redis>({
  open: openConnection,
  close: async (redis) => {
    await redis.quit().catch(() => redis.disconnect());
  },
  publish: append,
  classify: classifyRedisError,
});
