import { hostPort } from '../broker/index.js';
import type { Destination } from '../types.js';
import { openRabbitmqClient } from './client.js';
import { type RabbitmqConfig, rabbitmqConfigSchema } from './config.js';

export { type RabbitmqConfig, rabbitmqConfigSchema } from './config.js';

/**
 * The RabbitMQ destination (kind `rabbitmq`): each attempt publishes the event as a persistent message
 * on a confirm channel (`mandatory`, so an unroutable message fails instead of vanishing) and succeeds
 * on the broker's publisher confirm. `messageId` is the event id; the signature and metadata headers
 * (delivery id, attempt...) are AMQP headers. See docs/destinations.md.
 *
 * @example
 * const config = rabbitmqDestination.parse({ url: 'amqp://guest:guest@127.0.0.1:5672', queue: 'webhooks' });
 * const client = rabbitmqDestination.open(config, { policy });
 * const result = await client.send(message, { timeoutMs: 10_000 }); // { acknowledged: true, ... }
 */
export const rabbitmqDestination: Destination<RabbitmqConfig> = {
  kind: 'rabbitmq',
  parse: (config) => rabbitmqConfigSchema.parse(config),
  describe: (config) => {
    const scheme = config.endpoint.tls ? 'amqps' : 'amqp';
    const target =
      config.exchange === ''
        ? `queue "${config.routingKey}"`
        : `exchange "${config.exchange}" routing key "${config.routingKey}"`;
    return `rabbitmq ${scheme}://${hostPort(config.endpoint)} vhost "${config.vhost}" ${target}`;
  },
  addresses: (config) => [{ host: config.endpoint.host, port: config.endpoint.port }],
  open: openRabbitmqClient,
};
