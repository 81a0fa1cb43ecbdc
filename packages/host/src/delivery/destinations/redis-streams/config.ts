import { z } from 'zod';
import { type EndpointSchemes, endpointFields, parseEndpoint } from '../broker/index.js';

const SCHEMES: EndpointSchemes = {
  schemes: { redis: { tls: false }, rediss: { tls: true } },
  defaultPort: 6379,
  defaultTlsPort: 6379,
};

/**
 * A Redis Streams destination's saved configuration: `url` (`redis://user:pass@host:6379/0`, `rediss://`
 * for TLS) or `host`/`port`/`username`/`password`/`db`/`tls`; the stream `key`; optionally `maxLen`,
 * a cap on the stream's length (`XADD ... MAXLEN ~ maxLen`, trimmed approximately unless
 * `approximate: false`).
 *
 * @example
 * redisStreamsConfigSchema.parse({ url: 'redis://127.0.0.1:6379', key: 'webhooks', maxLen: 100000 });
 */
export const redisStreamsConfigSchema = z
  .object({
    ...endpointFields,
    db: z.number().int().min(0).max(65_535).optional(),
    key: z.string().min(1).max(1024),
    maxLen: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
    approximate: z.boolean().optional(),
  })
  .strict()
  .transform((input, ctx) => {
    const endpoint = parseEndpoint(input, ctx, SCHEMES);
    let db = input.db ?? 0;
    if (endpoint.path !== undefined) {
      if (!/^\d{1,5}$/.test(endpoint.path)) {
        ctx.addIssue({
          code: 'custom',
          path: ['url'],
          message: 'the path must be a database number, such as /0',
        });
      } else if (input.db !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['db'], message: 'the URL already names the database' });
      } else db = Number(endpoint.path);
    }
    if (input.approximate !== undefined && input.maxLen === undefined) {
      ctx.addIssue({ code: 'custom', path: ['approximate'], message: 'only applies with "maxLen"' });
    }
    return {
      endpoint,
      db,
      key: input.key,
      ...(input.maxLen === undefined ? {} : { maxLen: input.maxLen, approximate: input.approximate ?? true }),
      ...(input.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: input.connectTimeoutMs }),
    };
  });

/** A parsed Redis Streams configuration. */
export type RedisStreamsConfig = z.output<typeof redisStreamsConfigSchema>;
