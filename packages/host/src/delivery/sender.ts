import { sign } from '@platform/webhooks';
import type { Dispatcher } from 'undici';
import { type AttemptError, describe, toAttemptError } from './errors.js';
import { ExchangeTimeout, postExchange } from './exchange.js';
import { type DeliverySigning, signatureHeaders } from './signing.js';

/** At most this many bytes of a response body are kept (and read). */
export const RESPONSE_EXCERPT_BYTES = 4096;

/** Default attempt timeout (connect + headers + body excerpt), docs/contracts.md "Webhook delivery". */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

/** Input of {@link sendWebhook}: one attempt of one delivery. */
export interface SendWebhookInput {
  /** The subscriber's URL (validated beforehand with `validateWebhookUrl`). */
  url: string | URL;
  /** The event JSON, byte-identical on every attempt. */
  body: string;
  /** Active secrets (two during a rotation overlap): one `v1=` each. */
  secrets: readonly string[];
  /** The installation's signature scheme; absent: `platform` (`X-Platform-Signature` only). */
  signing?: DeliverySigning;
  eventId: string;
  eventType: string;
  /** Stable across the retries of a delivery. */
  deliveryId: string;
  /** 1-based attempt number within the series. */
  attempt: number;
  /** Deadline of the whole attempt: connect, headers and the body excerpt. Default 10 s. */
  timeoutMs?: number;
  /** A guarded dispatcher (`createGuardedDispatcher`): it applies the address policy. */
  dispatcher: Dispatcher;
  /** Goes into `User-Agent: Platform-Webhooks/<version>`. */
  userAgentVersion: string;
  /** W3C trace context of the attempt (tracing on), sent as the `traceparent` header. */
  traceparent?: string;
  /**
   * The endpoint's own headers (its custom headers and `Authorization`; names validated when saved: no
   * hop-by-hop, framing, body or signature header). The host's headers are written after them.
   */
  headers?: Readonly<Record<string, string>>;
  /** Wall clock in ms (`startedAt` and the signature's `t`). Default `Date.now`. */
  now?: () => number;
}

/** What happened during one attempt; every attempt is recorded with this. */
export interface AttemptResult {
  /** Wall-clock start of the attempt, ms since the epoch. */
  startedAt: number;
  /** Until the status and the body excerpt were in (or the failure), ms. */
  durationMs: number;
  /** The HTTP status, when the receiver answered. */
  statusCode?: number;
  /** A broker destination's acknowledgement (no HTTP status): the message is stored by the broker. */
  acknowledged?: boolean;
  /** The network-level failure, when it did not. */
  error?: AttemptError;
  /** The first 4 KiB of the response body, decoded as UTF-8 (a cut character is dropped). */
  responseExcerpt?: string;
  /** A 429 or 503 answer's `Retry-After` header, as sent (read by schedules other than `spec`). */
  retryAfter?: string;
}

/** UTF-8 text of an excerpt; a character cut at the end is dropped. */
function decodeExcerpt(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes, { stream: true });
}

/**
 * The headers of one attempt, as every destination sends them: the endpoint's own headers first (names
 * checked when saved: none of them can be one of ours), then the content type, the signature (computed
 * afresh, `platform` by default, another scheme's headers from signing.ts), the event and delivery ids, the
 * attempt number, `User-Agent` and `traceparent`. A signing failure (no secret) comes back as the attempt's
 * error, naming no secret.
 *
 * @example
 * const out = await deliveryHeaders(input, Buffer.from(input.body), Date.now);
 * if ('headers' in out) out.headers['x-platform-signature']; // 't=…,v1=…'
 */
export async function deliveryHeaders(
  input: Omit<SendWebhookInput, 'url' | 'dispatcher' | 'timeoutMs' | 'now'>,
  bytes: Buffer,
  now: () => number,
): Promise<{ headers: Record<string, string> } | { error: AttemptError }> {
  // `platform` (the default) signs here exactly as before; another scheme gets its headers from signing.ts.
  let signature: string | Record<string, string>;
  try {
    const timestamp = Math.floor(now() / 1000);
    signature =
      input.signing === undefined || input.signing.scheme === 'platform'
        ? await sign(bytes, input.secrets, { timestamp })
        : await signatureHeaders(input.signing, {
            bytes,
            secrets: input.secrets,
            eventId: input.eventId,
            timestamp,
          });
  } catch (error) {
    // A configuration problem (no secret): never include the secret values in the message.
    const name = error instanceof Error ? error.name : 'Error';
    return { error: { code: 'signing_error', message: `${describe('signing_error')} (${name})` } };
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  Object.assign(
    headers,
    { 'content-type': 'application/json' },
    typeof signature === 'string' ? { 'x-platform-signature': signature } : signature,
  );
  Object.assign(headers, {
    'x-platform-event-id': input.eventId,
    'x-platform-event-type': input.eventType,
    'x-platform-delivery-id': input.deliveryId,
    'x-platform-delivery-attempt': String(input.attempt),
    'user-agent': `Platform-Webhooks/${input.userAgentVersion}`,
  });
  if (input.traceparent !== undefined) headers.traceparent = input.traceparent;
  return { headers };
}

/**
 * Sends one signed attempt of a webhook delivery. Never throws for network outcomes: they come
 * back as `error.code` (`timeout`, `connection_refused`, `connection_reset`, `dns_error`,
 * `tls_error`, `target_blocked`, `network_error`). Redirects are not followed (a 3xx is just a
 * status). The signature is computed afresh for this attempt.
 *
 * @example
 * const result = await sendWebhook({
 *   url: 'https://hooks.example.com/in', body: JSON.stringify(event), secrets: [secret],
 *   eventId: event.eventId, eventType: event.type, deliveryId: 'dlv_1', attempt: 1,
 *   dispatcher, userAgentVersion: '0.1.0',
 * });
 * if (result.statusCode === 200) console.log('delivered in', result.durationMs, 'ms');
 */
export async function sendWebhook(input: SendWebhookInput): Promise<AttemptResult> {
  const now = input.now ?? Date.now;
  const timeoutMs = input.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const startedAt = now();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const bytes = Buffer.from(input.body, 'utf8');

  const headers = await deliveryHeaders(input, bytes, now);
  if ('error' in headers) return { startedAt, durationMs: elapsed(), error: headers.error };

  try {
    const { statusCode, excerpt, retryAfter } = await postExchange({
      url: typeof input.url === 'string' ? new URL(input.url) : input.url,
      headers: headers.headers,
      body: bytes,
      dispatcher: input.dispatcher,
      timeoutMs,
      excerptBytes: RESPONSE_EXCERPT_BYTES,
    });
    return {
      startedAt,
      durationMs: elapsed(),
      statusCode,
      responseExcerpt: decodeExcerpt(excerpt),
      ...(retryAfter === undefined ? {} : { retryAfter }),
    };
  } catch (error) {
    const timedOut = error instanceof ExchangeTimeout;
    return { startedAt, durationMs: elapsed(), error: toAttemptError(error, timedOut, timeoutMs) };
  }
}
