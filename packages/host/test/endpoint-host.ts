import { afterAll, beforeAll, expect } from 'vitest';
import type { Backend } from './backends.js';
import { type Receiver, startReceiver, startTestHost, type TestHost } from './helpers.js';

/** A webhook installation as the API shows it. */
export interface EndpointInstallation {
  id: string;
  status: string;
  configuration: Record<string, unknown>;
}
/** A delivery of the log. */
export interface EndpointDelivery {
  state: string;
  payload?: unknown;
  attempts: Array<{ statusCode?: number; error?: string; startedAt: string }>;
}
/** An error answer of the API. */
export interface ErrorBody {
  error: { code: string; message: string };
}

/** What {@link endpointHost} gives a suite of the endpoint settings' end-to-end tests. */
export interface EndpointHost {
  readonly t: TestHost;
  receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver>;
  /** Installs a webhook on a fresh space (or site: `place`) with the configuration given. */
  install(
    configuration: Record<string, unknown>,
    place?: 'space' | 'site',
  ): Promise<{ res: { status: number; body: EndpointInstallation & ErrorBody }; placeId: string }>;
  /** Posts an event (202 expected). */
  post(event: Record<string, unknown>): Promise<void>;
  /** Waits until the installation has `count` deliveries, all finished. */
  settled(id: string, count: number, timeoutMs?: number): Promise<EndpointDelivery[]>;
}

/**
 * A running host on `backend` (with private targets allowed: the receivers are on 127.0.0.1) for one
 * `describe`, its receivers closed after it. Call at the top of the `describe`.
 *
 * @example
 * const h = endpointHost('sqlite');
 * it('...', async () => { const r = await h.receiver(); const { res } = await h.install({ url: r.url }); });
 */
export function endpointHost(backend: Backend, env: Record<string, string> = {}): EndpointHost {
  const receivers: Receiver[] = [];
  let host: TestHost | undefined;
  let places = 0;
  beforeAll(async () => {
    host = await startTestHost({ PLATFORM_ALLOW_PRIVATE_TARGETS: '1', ...env }, backend);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await host?.close();
  });
  const h: EndpointHost = {
    get t() {
      if (!host) throw new Error('the host starts in beforeAll');
      return host;
    },
    async receiver(answer) {
      const r = await startReceiver(answer);
      receivers.push(r);
      return r;
    },
    async install(configuration, place = 'space') {
      places++;
      const placeId = `${place}-endpoint-${places}`;
      const events = place === 'space' ? { space_content_updated: true } : { page_feedback: true };
      const res = await h.t.api<EndpointInstallation & ErrorBody>('POST', '/v1/installations', {
        integration: 'webhook',
        [place]: placeId,
        configuration: { ...events, ...configuration },
      });
      return { res, placeId };
    },
    async post(event) {
      const accepted = await h.t.api('POST', '/v1/events', event);
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    },
    async settled(id, count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const res = await h.t.api<{ deliveries: EndpointDelivery[] }>(
          'GET',
          `/v1/installations/${id}/deliveries?limit=100`,
        );
        const list = res.body.deliveries;
        if (list.length >= count && list.every((d) => ['succeeded', 'failed', 'exhausted'].includes(d.state)))
          return list;
        if (Date.now() > deadline)
          throw new Error(`not settled: ${JSON.stringify(list.map((d) => d.state))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
  return h;
}
