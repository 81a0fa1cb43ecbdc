import { z } from 'zod';
import { type BrokerEndpoint, type EndpointSchemes, endpointFields, parseEndpoint } from '../broker/index.js';

const SCHEMES: EndpointSchemes = {
  schemes: { amqp: { tls: false }, amqps: { tls: true } },
  defaultPort: 5672,
  defaultTlsPort: 5671,
};

/** AMQP short strings (exchange, routing key, queue, vhost) are at most 255 bytes. */
const shortString = z
  .string()
  .max(255)
  .refine((value) => Buffer.byteLength(value) <= 255, 'must be at most 255 bytes');

/**
 * A RabbitMQ destination's saved configuration. Either `url` (`amqp://user:pass@host:5672/vhost`,
 * `amqps://` for TLS) or `host`/`port`/`username`/`password`/`vhost`/`tls`; then where messages go:
 * `exchange` (default `""`, the default exchange) and `routingKey`, or `queue` alone (the default
 * exchange routes a message to the queue of that name).
 *
 * @example
 * rabbitmqConfigSchema.parse({ url: 'amqp://guest:guest@127.0.0.1:5672', queue: 'webhooks' });
 */
export const rabbitmqConfigSchema = z
  .object({
    ...endpointFields,
    vhost: shortString.optional(),
    exchange: shortString.optional(),
    routingKey: shortString.optional(),
    queue: shortString.min(1).optional(),
    /** AMQP heartbeat, seconds (a silent connection is closed after about twice this). Default 15. */
    heartbeatSeconds: z.number().int().min(0).max(600).optional(),
  })
  .strict()
  .transform((input, ctx) => {
    const endpoint: BrokerEndpoint = parseEndpoint(input, ctx, SCHEMES);
    if (input.vhost !== undefined && endpoint.path !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['vhost'], message: 'the URL already names the vhost' });
    }
    const exchange = input.exchange ?? '';
    let routingKey = input.routingKey;
    if (input.queue !== undefined) {
      if (exchange !== '' || routingKey !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['queue'],
          message:
            '"queue" publishes through the default exchange: give it alone, or "exchange" and "routingKey"',
        });
      }
      routingKey = input.queue;
    }
    if (routingKey === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['routingKey'],
        message: 'give "routingKey" (with "exchange"), or "queue" for the default exchange',
      });
    }
    return {
      endpoint,
      vhost: input.vhost ?? endpoint.path ?? '/',
      exchange,
      routingKey: routingKey ?? '',
      heartbeatSeconds: input.heartbeatSeconds ?? 15,
      ...(input.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: input.connectTimeoutMs }),
    };
  });

/** A parsed RabbitMQ configuration. */
export type RabbitmqConfig = z.output<typeof rabbitmqConfigSchema>;
