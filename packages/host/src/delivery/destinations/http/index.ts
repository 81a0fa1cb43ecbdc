import { z } from 'zod';
import { validateWebhookUrl } from '../../../net/index.js';
import { type AttemptResult, sendWebhook } from '../../sender.js';
import type { Destination, DestinationClient, DestinationContext, DestinationMessage } from '../types.js';

/**
 * An HTTP destination's configuration: the subscriber's URL. An installation that declares no
 * `destination` is HTTP with its `url` (today's configuration, unchanged).
 *
 * @example
 * const config: HttpConfig = { url: 'https://hooks.example.com/in' };
 */
export interface HttpConfig {
  url: string;
}

const HttpConfigSchema = z.object({
  kind: z.literal('http').optional(),
  url: z.string().min(1, 'url: required, the subscriber URL (https://…)'),
});

/**
 * The URL without what must not reach a log: credentials and the query (it may carry a token).
 *
 * @example
 * safeUrl('https://user:pw@hooks.example.com/in?token=x'); // 'https://hooks.example.com/in'
 */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/**
 * One signed POST per attempt, through the guarded dispatcher: {@link sendWebhook}, unchanged (it signs each
 * attempt with its own timestamp, from `message.signing`). The URL is checked against the address policy
 * before each attempt, as the delivery engine does; the dispatcher checks the resolved addresses.
 */
function openHttp(config: HttpConfig, context: DestinationContext): DestinationClient {
  const { dispatcher, policy } = context;
  return {
    async send(message: DestinationMessage, options: { timeoutMs: number }): Promise<AttemptResult> {
      const check = validateWebhookUrl(config.url, policy);
      if (!check.ok || dispatcher === undefined) {
        return {
          startedAt: Date.now(),
          durationMs: 0,
          error: {
            code: 'invalid_target',
            message: check.ok ? 'no HTTP dispatcher given to the http destination' : check.message,
          },
        };
      }
      return sendWebhook({
        url: config.url,
        body: message.body,
        secrets: message.signing?.secrets ?? [],
        ...(message.signing?.scheme === undefined ? {} : { signing: message.signing.scheme }),
        eventId: message.eventId,
        eventType: message.eventType,
        deliveryId: message.deliveryId,
        attempt: message.attempt,
        headers: message.headers,
        timeoutMs: options.timeoutMs,
        dispatcher,
        userAgentVersion: context.userAgentVersion ?? '0.0.0',
      });
    },
    async close() {
      // The dispatcher is the engine's: nothing of its own to close.
    },
  };
}

/**
 * The HTTP destination (the default): today's webhook POST behind the destination seam. The delivery
 * engine sends HTTP attempts with the same {@link sendWebhook} on its own path (OAuth2 renewal on a 401,
 * rate-limit pacing, the URL checked once per change): see docs/architecture.md "Destinations".
 *
 * @example
 * const config = httpDestination.parse({ url: 'https://hooks.example.com/in' });
 * httpDestination.addresses(config); // [{ host: 'hooks.example.com', port: 443 }]
 * const client = httpDestination.open(config, { policy, dispatcher, userAgentVersion: '0.1.0' });
 */
export const httpDestination: Destination<HttpConfig> = {
  kind: 'http',
  parse(config: unknown): HttpConfig {
    const { url } = HttpConfigSchema.parse(config);
    return { url };
  },
  describe(config: HttpConfig): string {
    return `http ${safeUrl(config.url)}`;
  },
  addresses(config: HttpConfig) {
    try {
      const url = new URL(config.url);
      const port = url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port);
      return [{ host: url.hostname, port }];
    } catch {
      return [];
    }
  },
  open: openHttp,
};
