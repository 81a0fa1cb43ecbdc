import { hostPort } from '../broker/index.js';
import type { Destination } from '../types.js';
import { openRedisStreamsClient } from './client.js';
import { type RedisStreamsConfig, redisStreamsConfigSchema } from './config.js';

export { REDIS_STREAM_FIELDS } from './client.js';
export { type RedisStreamsConfig, redisStreamsConfigSchema } from './config.js';

/**
 * The Redis Streams destination (kind `redis-streams`): each attempt appends one entry to the stream
 * (`XADD key [MAXLEN ~ n] * body ... event_id ... event_type ... delivery_id ... attempt ... headers <JSON>`)
 * and succeeds on Redis's reply (the entry id). See docs/destinations.md.
 *
 * @example
 * const config = redisStreamsDestination.parse({ url: 'redis://127.0.0.1:6379', key: 'webhooks' });
 * const client = redisStreamsDestination.open(config, { policy });
 * const result = await client.send(message, { timeoutMs: 10_000 }); // { acknowledged: true, ... }
 */
export const redisStreamsDestination: Destination<RedisStreamsConfig> = {
  kind: 'redis-streams',
  parse: (config) => redisStreamsConfigSchema.parse(config),
  describe: (config) => {
    const scheme = config.endpoint.tls ? 'rediss' : 'redis';
    const cap = config.maxLen === undefined ? '' : ` maxlen ${config.approximate ? '~' : ''}${config.maxLen}`;
    return `redis-streams ${scheme}://${hostPort(config.endpoint)}/${config.db} key "${config.key}"${cap}`;
  },
  addresses: (config) => [{ host: config.endpoint.host, port: config.endpoint.port }],
  open: openRedisStreamsClient,
};
