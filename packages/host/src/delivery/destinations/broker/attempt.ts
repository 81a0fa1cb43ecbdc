import { type AttemptError, toAttemptError } from '../../errors.js';
import type { AttemptResult } from '../../sender.js';
import type { DestinationMessage } from '../types.js';
import type { BrokerErrorCode } from './codes.js';

/** What {@link runBrokerAttempt} needs of one broker. */
export interface BrokerAttemptOptions {
  timeoutMs: number;
  /** Connects if needed and publishes; resolves once the broker acknowledged the message. */
  work: (remainingMs: () => number) => Promise<void>;
  /** The broker's own failures (`broker_*`, refused credentials...), or undefined for a plain network error. */
  classify: (error: unknown) => AttemptError | undefined;
  /** Called when the deadline passed first (the client drops the connection, whose state is in doubt). */
  onTimeout?: () => void;
}

/**
 * Runs one broker attempt under its deadline and turns its outcome into an {@link AttemptResult}:
 * `{ acknowledged: true }` when `work` resolved in time, `timeout` when the deadline passed first (the
 * work is abandoned, not awaited), else the broker's classification or the network code of the error
 * (`connection_refused`, `target_blocked`, `dns_error`...). Never throws.
 *
 * @example
 * const result = await runBrokerAttempt({ timeoutMs: 10_000, work: () => publish(), classify: () => undefined });
 * // { startedAt: 1767225600000, durationMs: 3, acknowledged: true }
 */
export async function runBrokerAttempt(options: BrokerAttemptOptions): Promise<AttemptResult> {
  const startedAt = Date.now();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const remainingMs = () => Math.max(0, options.timeoutMs - (performance.now() - started));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
  });
  try {
    const work = options.work(remainingMs).then(() => 'done' as const);
    work.catch(() => {}); // Abandoned after a timeout: its late failure is nobody's.
    if ((await Promise.race([work, deadline])) === 'timeout') {
      options.onTimeout?.();
      return {
        startedAt,
        durationMs: elapsed(),
        error: toAttemptError(new Error('deadline'), true, options.timeoutMs),
      };
    }
    return { startedAt, durationMs: elapsed(), acknowledged: true };
  } catch (error) {
    return {
      startedAt,
      durationMs: elapsed(),
      error: options.classify(error) ?? toAttemptError(error, false),
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A broker failure as an attempt error: a fixed description, then the broker's own words (which
 * name no credentials), cut at 300 characters.
 *
 * @example
 * brokerError('broker_rejected', 'The broker refused the credentials', error);
 */
export function brokerError(code: BrokerErrorCode, description: string, error: unknown): AttemptError {
  const detail = error instanceof Error && error.message ? ` (${error.message.slice(0, 300)})` : '';
  return { code, message: `${description}${detail}` };
}

/**
 * The headers a broker message carries: the signature and metadata headers HTTP would send, with the
 * event and delivery ids, the event type and the attempt number always present (named as in HTTP).
 *
 * @example
 * brokerHeaders(message)['x-platform-delivery-id']; // 'dlv_1'
 */
export function brokerHeaders(message: DestinationMessage): Record<string, string> {
  return {
    ...message.headers,
    'content-type': 'application/json',
    'x-platform-event-id': message.eventId,
    'x-platform-event-type': message.eventType,
    'x-platform-delivery-id': message.deliveryId,
    'x-platform-delivery-attempt': String(message.attempt),
  };
}
