import { verify } from '@platform/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperatorEvent } from '../src/delivery/operator-events.js';
import { BACKENDS } from './backends.js';
import { createInstallation, type Receiver, startReceiver, startTestHost, type TestHost } from './helpers.js';

const SECRET = 'whsec_operator_events_test_secret_0123456789';

interface Listed {
  endpoint: string | null;
  types: string[];
  deliveries: Array<{
    eventType: string;
    state: string;
    payload: Record<string, unknown>;
    attempts: Array<{ statusCode?: number }>;
  }>;
}

/**
 * Operator events (docs/contracts.md "Operator events") on a real host: `delivery.exhausted`,
 * `endpoint.disabled` and `endpoint.recovered` reach the operator's receiver signed with its secret
 * (platform scheme), through the durable pipeline (the first one is retried after a 503, on the
 * `extended` schedule's first delay), and are listed with their attempts by `GET /v1/operator-events`.
 */
describe.each(BACKENDS)('operator events (%s)', (backend) => {
  let t: TestHost;
  let operator: Receiver;
  let webhook: Receiver;
  let operatorCalls = 0;
  const webhookOk = { value: false };

  beforeAll(async () => {
    operator = await startReceiver((_req, res) => {
      operatorCalls++;
      res.writeHead(operatorCalls === 1 ? 503 : 200).end();
    });
    webhook = await startReceiver((_req, res) => res.writeHead(webhookOk.value ? 200 : 503).end());
    t = await startTestHost(
      {
        PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
        PLATFORM_ENDPOINT_DISABLE_AFTER: '2s',
        PLATFORM_OPERATOR_EVENTS_URL: operator.url,
        PLATFORM_OPERATOR_EVENTS_SECRET: SECRET,
      },
      backend,
    );
  });
  afterAll(async () => {
    await operator.close();
    await webhook.close();
    await t.close();
  });

  const send = (revisionId: string) =>
    t.api<{ eventId: string }>('POST', '/v1/events', {
      type: 'space_content_updated',
      spaceId: 'space-operator',
      revisionId,
    });

  /** The operator events received so far, verified and parsed. */
  async function received(): Promise<OperatorEvent[]> {
    const events: OperatorEvent[] = [];
    for (const request of operator.received) {
      const header = String(request.headers['x-platform-signature']);
      await expect(verify(request.body, header, SECRET)).resolves.toBeTruthy();
      events.push(OperatorEvent.parse(JSON.parse(request.body)));
    }
    // a retry carries the same event: one per eventId
    return [...new Map(events.map((e) => [e.eventId, e])).values()];
  }

  it('tells the operator of exhausted deliveries, a disabled endpoint and its recovery, signed and retried', async () => {
    const { id } = await createInstallation<{ id: string }>(t, 'webhook', 'space-operator', {
      url: webhook.url,
      space_content_updated: true,
      retry_schedule: '1s',
    });

    const first = await send('a');
    // delivery.exhausted: its first delivery to the operator got a 503, its retry (5-5.5 s later) a 200
    await operator.waitFor(2, 15_000);
    const [exhausted] = await received();
    expect(exhausted).toMatchObject({
      type: 'delivery.exhausted',
      installationId: id,
      endpoint: new URL(webhook.url).origin,
      event: { eventId: first.body.eventId, type: 'space_content_updated' },
      attempts: 2,
      lastOutcome: 'HTTP 503',
    });
    const [a1, a2] = operator.received;
    expect(a2!.at - a1!.at).toBeGreaterThanOrEqual(5000 - 5);
    expect(a2!.headers['x-platform-delivery-id']).toBe(a1!.headers['x-platform-delivery-id']);
    expect(a2!.headers['x-platform-delivery-attempt']).toBe('2');

    await new Promise((r) => setTimeout(r, 2000));
    await send('b');
    await expect
      .poll(async () => (await received()).map((e) => e.type), { timeout: 15_000 })
      .toEqual(['delivery.exhausted', 'delivery.exhausted', 'endpoint.disabled']);
    const disabled = (await received())[2]!;
    expect(disabled).toMatchObject({ installationId: id, endpoint: new URL(webhook.url).origin });

    webhookOk.value = true;
    expect((await t.api('POST', `/v1/installations/${id}/endpoint/enable`, {})).status).toBe(200);
    await send('c');
    await expect
      .poll(async () => (await received()).map((e) => e.type), { timeout: 10_000 })
      .toEqual(['delivery.exhausted', 'delivery.exhausted', 'endpoint.disabled', 'endpoint.recovered']);

    // Listed with their attempts, newest first.
    const list = await t.api<Listed>('GET', '/v1/operator-events');
    expect(list.status).toBe(200);
    expect(list.body.endpoint).toBe(new URL(operator.url).origin);
    expect(list.body.types).toEqual(['endpoint.disabled', 'endpoint.recovered', 'delivery.exhausted']);
    await expect
      .poll(async () =>
        (await t.api<Listed>('GET', '/v1/operator-events')).body.deliveries.map((d) => d.state),
      )
      .toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    const listed = (await t.api<Listed>('GET', '/v1/operator-events')).body.deliveries;
    expect(listed.map((d) => d.eventType)).toEqual([
      'endpoint.recovered',
      'endpoint.disabled',
      'delivery.exhausted',
      'delivery.exhausted',
    ]);
    expect(listed.at(-1)!.attempts.map((a) => a.statusCode)).toEqual([503, 200]);
    expect(listed[0]!.payload).toMatchObject({ type: 'endpoint.recovered', installationId: id });
    // Not an installation: the webhook installations' list does not show it.
    const installations = await t.api<{ installations: Array<{ id: string }> }>('GET', '/v1/installations');
    expect(installations.body.installations.map((i) => i.id)).not.toContain('operator');
  }, 60_000);
});
