import { hostPort } from '../broker/index.js';
import type { Destination } from '../types.js';
import { openNatsClient } from './client.js';
import type { NatsConfig } from './config.js';
import { natsConfigSchema } from './config.js';

export { type NatsConfig, natsConfigSchema } from './config.js';

/**
 * The NATS JetStream destination (kind `nats`): each attempt publishes the event to the subject with
 * `msgID` = the delivery id (the stream drops a second copy inside its duplicate window) and the
 * signature and metadata headers as NATS headers; it succeeds on the stream's PubAck only.
 * See docs/destinations.md.
 *
 * @example
 * const config = natsDestination.parse({ url: 'nats://127.0.0.1:4222', subject: 'webhooks.events' });
 * const client = natsDestination.open(config, { policy });
 * const result = await client.send(message, { timeoutMs: 10_000 }); // { acknowledged: true, ... }
 */
export const natsDestination: Destination<NatsConfig> = {
  kind: 'nats',
  parse: (config) => natsConfigSchema.parse(config),
  describe: (config) => {
    const scheme = config.endpoint.tls ? 'tls' : 'nats';
    const stream = config.stream === undefined ? '' : ` stream "${config.stream}"`;
    return `nats ${scheme}://${hostPort(config.endpoint)} subject "${config.subject}"${stream}`;
  },
  addresses: (config) => [{ host: config.endpoint.host, port: config.endpoint.port }],
  open: openNatsClient,
};
