import { sleep } from '../commands/shared.js';
import type { DeliveryView, HostClient, InvocationView } from './client.js';

/** How often, and until when, a follower polls; what it does with a failed poll. */
export interface Polling {
  signal: AbortSignal;
  /** Between polls, in ms (default 300). */
  intervalMs?: number;
  /** Gets the error of a poll that threw; polling goes on. */
  onError?: (error: unknown) => void;
}

/** Runs `poll` every `intervalMs` until `signal` aborts. */
async function pollUntilAborted(polling: Polling, poll: () => Promise<void>): Promise<void> {
  while (!polling.signal.aborted) {
    try {
      await poll();
    } catch (error) {
      polling.onError?.(error);
    }
    await sleep(polling.intervalMs ?? 300, polling.signal);
  }
}

/**
 * Polls the invocation logs of an installation and calls `onInvocation` once per new invocation,
 * oldest first, until `signal` aborts. (The host has no log stream: `GET .../logs?since=` is polled.)
 *
 * @example
 * ```ts
 * await followLogs(host, 'inst_1', (inv) => console.log(inv.eventType), { signal });
 * ```
 */
export async function followLogs(
  host: HostClient,
  installationId: string,
  onInvocation: (invocation: InvocationView) => void,
  options: Polling & { since?: number },
): Promise<void> {
  const seen = new Set<string>();
  let since = options.since ?? Date.now();
  await pollUntilAborted(options, async () => {
    const { invocations } = await host.call('GET /v1/installations/{id}/logs', {
      params: { id: installationId },
      query: { since, limit: 100 },
    });
    for (const invocation of [...invocations].reverse()) {
      if (seen.has(invocation.id)) continue;
      seen.add(invocation.id);
      since = Math.max(since, Date.parse(invocation.createdAt));
      onInvocation(invocation);
    }
  });
}

/**
 * Polls the deliveries of a webhook installation and calls `onAttempt` once per new attempt (and
 * `onDelivery` once per new delivery), until `signal` aborts.
 *
 * @example
 * ```ts
 * await followDeliveries(host, 'inst_1', { onAttempt: (d, a) => console.log(d.id, a.statusCode), signal });
 * ```
 */
export async function followDeliveries(
  host: HostClient,
  installationId: string,
  options: Polling & {
    onAttempt: (delivery: DeliveryView, attempt: DeliveryView['attempts'][number]) => void;
    /** Called once each time a delivery is seen in a new state (after its new attempts). */
    onState?: (delivery: DeliveryView) => void;
  },
): Promise<void> {
  const seen = new Set<string>();
  const states = new Map<string, string>();
  const since = new Date(Date.now() - 1000).toISOString();
  await pollUntilAborted(options, async () => {
    const { deliveries } = await host.call('GET /v1/installations/{id}/deliveries', {
      params: { id: installationId },
      query: { since, limit: 100 },
    });
    for (const delivery of [...deliveries].reverse()) {
      for (const attempt of delivery.attempts) {
        const key = `${delivery.id}/${attempt.series}/${attempt.number}`;
        if (seen.has(key)) continue;
        seen.add(key);
        options.onAttempt(delivery, attempt);
      }
      if (states.get(delivery.id) !== delivery.state) {
        states.set(delivery.id, delivery.state);
        options.onState?.(delivery);
      }
    }
  });
}
