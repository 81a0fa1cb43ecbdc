import { z } from 'zod';
import { type EndpointSchemes, endpointFields, parseEndpoint } from '../broker/index.js';

const SCHEMES: EndpointSchemes = {
  schemes: { nats: { tls: false }, tls: { tls: true } },
  defaultPort: 4222,
  defaultTlsPort: 4222,
};

/** A subject to publish to: dot-separated tokens, no wildcard, no white space. */
const SUBJECT = /^[^\s.*>]+(\.[^\s.*>]+)*$/;

/**
 * A NATS JetStream destination's saved configuration: `url` (`nats://user:pass@host:4222`, `tls://`
 * for TLS) or `host`/`port`/`username`/`password`/`tls`, or a `token`; the `subject` a stream captures;
 * optionally the `stream` expected to store it (the publish fails if another one would).
 *
 * @example
 * natsConfigSchema.parse({ url: 'nats://127.0.0.1:4222', subject: 'webhooks.page' });
 */
export const natsConfigSchema = z
  .object({
    ...endpointFields,
    token: z.string().min(1).max(4096).optional(),
    subject: z
      .string()
      .max(255)
      .regex(SUBJECT, 'must be a subject such as "webhooks.events" (no wildcard, no space)'),
    stream: z
      .string()
      .max(255)
      .regex(/^[^\s.*>/\\]+$/, 'must be a stream name (no space, ".", "*", ">", "/" or "\\")')
      .optional(),
  })
  .strict()
  .transform((input, ctx) => {
    const endpoint = parseEndpoint(input, ctx, SCHEMES);
    if (input.token !== undefined && (endpoint.username !== undefined || endpoint.password !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['token'],
        message: 'give a token or a username and password, not both',
      });
    }
    return {
      endpoint,
      subject: input.subject,
      ...(input.token === undefined ? {} : { token: input.token }),
      ...(input.stream === undefined ? {} : { stream: input.stream }),
      ...(input.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: input.connectTimeoutMs }),
    };
  });

/** A parsed NATS JetStream configuration. */
export type NatsConfig = z.output<typeof natsConfigSchema>;
