import type { createColors } from 'picocolors';
import type { DeliveryView, InvocationView } from './client.js';

type Colors = ReturnType<typeof createColors>;

/**
 * One invocation as lines: `10:42:01 <event type> evt_1 → 200 (12 ms)` then its log lines.
 *
 * @example
 * ```ts
 * io.stdout(formatInvocation(invocation, createColors(false)));
 * ```
 */
export function formatInvocation(invocation: InvocationView, c: Colors): string {
  const time = invocation.createdAt.slice(11, 19);
  const ok = typeof invocation.status === 'number' && invocation.status < 400;
  const status = ok ? c.green(String(invocation.status)) : c.red(String(invocation.status));
  const head = `${c.dim(time)} ${c.bold(invocation.eventType)} ${c.dim(invocation.eventId ?? '')} → ${status} ${c.dim(`(${invocation.durationMs} ms)`)}`;
  const levels: Record<string, (s: string) => string> = { error: c.red, warn: c.yellow, debug: c.dim };
  const lines = invocation.lines.map(
    (l) => `  ${(levels[l.level] ?? ((s: string) => s))(l.level.padEnd(5))} ${l.message}`,
  );
  return `${[head, ...lines].join('\n')}\n`;
}

/**
 * One delivery attempt as a line: `10:42:01 <event type> evt_1 dlv_1 attempt 1 → 200 (8 ms)`.
 *
 * @example
 * ```ts
 * io.stdout(formatAttempt(delivery, delivery.attempts[0], createColors(false)));
 * ```
 */
export function formatAttempt(
  delivery: DeliveryView,
  attempt: DeliveryView['attempts'][number],
  c: Colors,
): string {
  const time = attempt.startedAt.slice(11, 19);
  const ok = attempt.statusCode !== undefined && attempt.statusCode < 300;
  const result =
    attempt.statusCode !== undefined
      ? ok
        ? c.green(String(attempt.statusCode))
        : c.red(String(attempt.statusCode))
      : attempt.acknowledged
        ? c.green('acknowledged')
        : c.red(attempt.error ?? 'error');
  const series = attempt.series > 1 ? ` (redelivery ${attempt.series - 1})` : '';
  return `${c.dim(time)} ${c.bold(delivery.eventType)} ${delivery.eventId} ${c.dim(delivery.id)} attempt ${attempt.number}${series} → ${result} ${c.dim(`(${attempt.durationMs} ms)`)}\n`;
}

const redeliver = (delivery: DeliveryView, installationId: string) =>
  `\`platform deliveries redeliver ${delivery.id} --installation ${installationId}\` sends it again`;

/**
 * What follows a failed attempt, for the person watching (`platform listen`): a 4xx other than 429
 * is final, and says how to send it again. Empty otherwise.
 *
 * @example
 * ```ts
 * attemptNote(delivery, attempt, 'inst_1'); // '  400 is not retried (only network errors, 429 and 5xx are); ...\n'
 * ```
 */
export function attemptNote(
  delivery: DeliveryView,
  attempt: DeliveryView['attempts'][number],
  installationId: string,
): string {
  const status = attempt.statusCode;
  if (status !== undefined && status >= 400 && status < 500 && status !== 429) {
    return `  ${status} is not retried (only network errors, 429 and 5xx are); fix the receiver, then ${redeliver(delivery, installationId)}\n`;
  }
  return '';
}

/**
 * The line for a delivery that ran out of retries (empty for any other state).
 *
 * @example
 * ```ts
 * stateNote(delivery, 'inst_1'); // '  gave up: delivery dlv_1 is exhausted after 4 attempts; ...\n'
 * ```
 */
export function stateNote(delivery: DeliveryView, installationId: string): string {
  if (delivery.state !== 'exhausted') return '';
  const attempts = delivery.attempts.filter((a) => a.series === delivery.series).length;
  return `  gave up: delivery ${delivery.id} is exhausted after ${attempts} attempts; ${redeliver(delivery, installationId)}\n`;
}
