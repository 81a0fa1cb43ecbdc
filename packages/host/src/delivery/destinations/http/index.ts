import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { type AddressPolicy, validateWebhookUrl } from '../../../net/index.js';
import { describe } from '../../errors.js';
import { type AttemptResult, sendWebhook } from '../../sender.js';
import type {
  Destination,
  DestinationClient,
  DestinationContext,
  DestinationMessage,
  RenewableAuthorization,
} from '../types.js';

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

/** What {@link openHttpClient} needs: the destination context, its address policy optional (tests). */
export type HttpClientContext = Omit<DestinationContext, 'policy'> & { policy?: AddressPolicy };

/**
 * An HTTP destination's client: one signed POST per attempt through the guarded dispatcher
 * ({@link sendWebhook}, which signs each attempt with its own timestamp from `message.signing`). The URL is
 * checked against the address policy once, when the client is opened (a changed URL opens a new client);
 * the dispatcher checks the addresses it resolves. A URL the policy refuses fails every attempt
 * `invalid_target` without a request. With `message.authorization` (an endpoint's OAuth2 token) the
 * attempt carries its current value and, after a 401, is sent once more with a renewed one (one attempt,
 * its time from the first request's start); no value to be had ends the attempt `auth_error` (retried like
 * a network error).
 *
 * @example
 * const client = openHttpClient('https://hooks.example.com/in', { policy, dispatcher, userAgentVersion: '0.1.0' });
 * const result = await client.send(message, { timeoutMs: 10_000 });
 */
export function openHttpClient(
  url: string,
  context: HttpClientContext,
): DestinationClient & { problem?: string } {
  const { dispatcher } = context;
  const now = context.now ?? Date.now;
  const send = context.send ?? sendWebhook;
  const check = context.policy ? validateWebhookUrl(url, context.policy) : { ok: true as const };
  const problem = !check.ok
    ? check.message
    : dispatcher === undefined && context.send === undefined
      ? 'no HTTP dispatcher given to the http destination'
      : undefined;
  // Parsed once: consecutive attempts mostly go to the same URL.
  const parsed = problem === undefined ? new URL(url) : undefined;

  const post = (message: DestinationMessage, timeoutMs: number, headers: Readonly<Record<string, string>>) =>
    send({
      url: parsed ?? url,
      body: message.body,
      secrets: message.signing?.secrets ?? [],
      ...(message.signing?.scheme === undefined ? {} : { signing: message.signing.scheme }),
      eventId: message.eventId,
      eventType: message.eventType,
      deliveryId: message.deliveryId,
      attempt: message.attempt,
      headers,
      timeoutMs,
      dispatcher: dispatcher as Dispatcher,
      userAgentVersion: context.userAgentVersion ?? '0.0.0',
      now,
      ...(message.traceparent === undefined ? {} : { traceparent: message.traceparent }),
    });

  async function sendAuthorized(
    message: DestinationMessage,
    timeoutMs: number,
    authorization: RenewableAuthorization,
  ): Promise<AttemptResult> {
    const startedAt = now();
    const authFailed = (error: unknown): AttemptResult => ({
      startedAt,
      durationMs: Math.max(0, now() - startedAt),
      error: {
        code: 'auth_error',
        message: `${describe('auth_error')}: ${error instanceof Error ? error.message : String(error)}`,
      },
    });
    const withAuth = (value: string) => ({ ...message.headers, authorization: value });
    let value: string;
    try {
      value = await authorization.current();
    } catch (error) {
      return authFailed(error);
    }
    const first = await post(message, timeoutMs, withAuth(value));
    if (first.statusCode !== 401) return first;
    try {
      value = await authorization.renew();
    } catch (error) {
      return authFailed(error);
    }
    const second = await post(message, timeoutMs, withAuth(value));
    return { ...second, startedAt, durationMs: second.startedAt + second.durationMs - startedAt };
  }

  return {
    signsEachAttempt: true,
    ...(problem === undefined ? {} : { problem }),
    async send(message: DestinationMessage, options: { timeoutMs: number }): Promise<AttemptResult> {
      if (problem !== undefined) {
        return { startedAt: now(), durationMs: 0, error: { code: 'invalid_target', message: problem } };
      }
      return message.authorization
        ? sendAuthorized(message, options.timeoutMs, message.authorization)
        : post(message, options.timeoutMs, message.headers);
    },
    async close() {
      // The dispatcher is the engine's: nothing of its own to close.
    },
  };
}

/**
 * The HTTP destination (the default): the webhook POST behind the destination seam ({@link openHttpClient}:
 * the URL checked once per client, OAuth2 renewal on a 401). See docs/architecture.md "Destinations".
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
  open: (config, context) => openHttpClient(config.url, context),
};
