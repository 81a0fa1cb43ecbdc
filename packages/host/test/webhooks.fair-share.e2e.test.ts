import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';
import { type Receiver, startReceiver, startTestHost, type TestHost } from './helpers.js';

interface Delivery {
  state: string;
  attempts: Array<{ statusCode?: number; error?: string }>;
}

/**
 * A dead subscriber endpoint (it takes the connection and never answers) must not hold up the others:
 * each of its attempts would hold a delivery slot until the attempt timeout (2 s here), so a backlog of its
 * events would take every slot. With the fair share, an attempt running past 500 ms gives its slot back and
 * makes its installation slow; a slow installation has at most its share in flight (4 of 8 slots here).
 */
describe.each(
  BACKENDS.flatMap((backend) => [
    [backend, '1'],
    [backend, '0'],
  ]),
)('fair share of delivery slots (%s, PLATFORM_DELIVERY_THREAD=%s)', (backend, thread) => {
  let t: TestHost | undefined;
  const receivers: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await t?.close();
  });
  /** A host with 8 delivery slots (a slow installation's share: 4), private targets allowed. */
  const startHost = (env: Record<string, string>) =>
    startTestHost(
      {
        PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
        PLATFORM_DELIVERY_THREAD: thread,
        PLATFORM_DELIVERY_CONCURRENCY: '8',
        ...env,
      },
      backend,
    );

  /** A webhook installation of `space` on `url`; its id. */
  async function install(host: TestHost, url: string, space: string): Promise<string> {
    const res = await host.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'webhook',
      space,
      configuration: { url, space_content_updated: true },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  it('a dead endpoint gives its slots back and is capped; another subscriber is served; nothing is lost', async () => {
    t = await startHost({ PLATFORM_DELIVERY_TIMEOUT_MS: '2000' });
    const host = t;
    let dead = true;
    const flaky = await startReceiver((_request, res) => {
      if (!dead) res.writeHead(200).end('{"received":true}');
      // else: never answers; the attempt times out after 2 s
    });
    const healthy = await startReceiver();
    receivers.push(flaky, healthy);
    const post = (spaceId: string, revisionId: string) =>
      host.api('POST', '/v1/events', { type: 'space_content_updated', spaceId, revisionId });
    const deadInstallation = await install(host, flaky.url, 'space-dead');
    const healthyInstallation = await install(host, healthy.url, 'space-healthy');

    for (let i = 0; i < 20; i++) expect((await post('space-dead', `dead-${i}`)).status).toBe(202);
    // Nothing was known of it: its first attempts took every free slot, and hang.
    await flaky.waitFor(8);
    await new Promise((r) => setTimeout(r, 700));
    // Past 500 ms they gave their slots back and the installation became slow: 8 in flight is over its
    // share of 4, so none of its 12 other deliveries has started.
    expect(flaky.received).toHaveLength(8);
    // The engine told the main thread (by message from the delivery thread), which now leaves its new
    // deliveries in the queue, and the delivery log says so.
    expect(host.host.context.delivery.isSlow(deadInstallation)).toBe(true);
    const endpointOf = async (id: string) =>
      (await host.api<{ endpoint: unknown }>('GET', `/v1/installations/${id}/deliveries?limit=1`)).body
        .endpoint;
    // (slow, not disabled: endpoint health is another matter, webhooks.health.e2e.test.ts)
    const enabled = { disabled: false, disabledAt: null, failingSince: null, held: 0, filtered: 0 };
    expect(await endpointOf(deadInstallation)).toEqual({ slow: true, maxInFlight: 4, ...enabled });
    expect(await endpointOf(healthyInstallation)).toEqual({ slow: false, maxInFlight: null, ...enabled });
    const late = await post('space-dead', 'dead-late');
    expect(late.status).toBe(202);
    const lateEventId = (late.body as { eventId: string }).eventId;
    // ... holds it (out of the index the other installations' claims scan), and shows it as queued. (Which
    // of the earlier ones are held depends on how fast the 20 events were posted: those accepted after the
    // installation became slow are held too, and on a loaded machine some hung attempts may have timed out
    // and wait for their retry.)
    const waiting = (
      await host.host.context.storage.jobs.listDeliveries(deadInstallation, { state: 'queued', limit: 100 })
    ).items;
    expect(waiting.length).toBeGreaterThanOrEqual(13);
    expect(waiting.every((job) => job.state === 'queued' || job.state === 'held')).toBe(true);
    expect(waiting.find((job) => job.eventId === lateEventId)?.state).toBe('held');
    const held = waiting.filter((job) => job.state === 'held').length;
    const queuedView = await host.api<{ deliveries: Delivery[] }>(
      'GET',
      `/v1/installations/${deadInstallation}/deliveries?state=queued&limit=100`,
    );
    expect(queuedView.body.deliveries.map((d) => d.state)).toEqual(Array(waiting.length).fill('queued'));
    // the operator's overview names the slow endpoint (origin only) and counts what waits for it
    const status = await host.api<{
      deliveries: { queued: number; held: number; running: number };
      slowEndpoints: Array<{ installationId: string; target: string; targetId: string; origin: string }>;
    }>('GET', '/v1/status');
    expect(status.status).toBe(200);
    expect(status.body.slowEndpoints).toEqual([
      {
        installationId: deadInstallation,
        integration: 'webhook',
        target: 'space',
        targetId: 'space-dead',
        origin: new URL(flaky.url).origin,
      },
    ]);
    expect(status.body.deliveries).toMatchObject({ queued: waiting.length, held });

    const posted = Date.now();
    expect((await post('space-healthy', 'live')).status).toBe(202);
    const [delivered] = await healthy.waitFor(1, 5_000);
    // Without the fair share every slot hangs until the attempts time out (about 1.2 s from here); with
    // it the other subscriber's event goes out at once.
    expect(delivered!.at - posted).toBeLessThan(800);
    expect(flaky.received).toHaveLength(8); // 'dead-late' waits in the queue for the installation's share

    // The endpoint recovers: every one of its 21 deliveries succeeds (none lost while held back, the
    // held one included).
    dead = false;
    const deadline = Date.now() + 30_000;
    let list: Delivery[] = [];
    while (Date.now() < deadline) {
      const res = await host.api<{ deliveries: Delivery[] }>(
        'GET',
        `/v1/installations/${deadInstallation}/deliveries?limit=100`,
      );
      list = res.body.deliveries;
      if (list.length === 21 && list.every((d) => d.state === 'succeeded')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(list.map((d) => d.state)).toEqual(Array(21).fill('succeeded'));
    // The 8 that hung timed out once, then succeeded on a retry; the others went out once, after the
    // endpoint recovered.
    const attempts = list.map((d) => d.attempts.length).sort();
    expect(attempts).toEqual([...Array(13).fill(1), ...Array(8).fill(2)]);
    const failed = list.flatMap((d) => d.attempts.filter((a) => a.error));
    expect(failed.every((a) => a.error?.startsWith('timeout'))).toBe(true);
  }, 60_000);

  it('an endpoint flagged slow by two slow answers, and quick again, gets its deliveries at once within its share', async () => {
    // The idle check as good as off (10 minutes): only the held deliveries' wake-up and the ends of the
    // installation's own attempts can bring its next deliveries out.
    t = await startHost({ PLATFORM_QUEUE_POLL_MS: '600000' });
    const host = t;
    let answered = 0;
    const hiccup = await startReceiver((_request, res) => {
      answered += 1;
      // The first two answers take 700 ms (past the 500 ms that makes an attempt linger); the others, none.
      setTimeout(() => res.writeHead(200).end('{"received":true}'), answered <= 2 ? 700 : 0);
    });
    receivers.push(hiccup);
    const id = await install(host, hiccup.url, 'space-hiccup');
    const post = (revisionId: string) =>
      host.api('POST', '/v1/events', { type: 'space_content_updated', spaceId: 'space-hiccup', revisionId });
    expect((await post('slow-one')).status).toBe(202);
    expect((await post('slow-two')).status).toBe(202);
    await hiccup.waitFor(2, 5_000);
    await expect.poll(() => host.host.context.delivery.isSlow(id), { timeout: 5_000 }).toBe(true);
    // Two lingering attempts within a minute: flagged slow for a minute, after they ended too.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(host.host.context.delivery.isSlow(id)).toBe(true);
    // Its new deliveries are held, at most 4 in flight. Posted one by one, the first finds none of its
    // attempts in flight; then a burst.
    const started = Date.now();
    expect((await post('after-0')).status).toBe(202);
    await hiccup.waitFor(3, 5_000);
    const burst = await Promise.all(Array.from({ length: 40 }, (_v, i) => post(`after-${i + 1}`)));
    expect(burst.every((res) => res.status === 202)).toBe(true);
    await hiccup.waitFor(43, 10_000);
    // Within its share, at once: before, held deliveries waited for the idle check (here 10 minutes).
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(host.host.context.delivery.isSlow(id)).toBe(true); // still slow all along
  }, 60_000);

  it('one slow answer alone (a lost packet on a healthy endpoint) leaves no mark once it ends', async () => {
    t = await startHost({});
    const host = t;
    let answered = 0;
    const blip = await startReceiver((_request, res) => {
      answered += 1;
      setTimeout(() => res.writeHead(200).end('{"received":true}'), answered === 1 ? 700 : 0);
    });
    receivers.push(blip);
    const id = await install(host, blip.url, 'space-blip');
    const post = (revisionId: string) =>
      host.api('POST', '/v1/events', { type: 'space_content_updated', spaceId: 'space-blip', revisionId });
    expect((await post('slow-one')).status).toBe(202);
    await blip.waitFor(1, 5_000);
    // Slow while its attempt lingers (past 500 ms), and no longer once it has ended.
    await expect.poll(() => host.host.context.delivery.isSlow(id), { timeout: 5_000 }).toBe(true);
    await expect.poll(() => host.host.context.delivery.isSlow(id), { timeout: 5_000 }).toBe(false);
    // So a burst is not held to the slow share: more than 4 of its deliveries in flight at once.
    // Each request waits until 5 are in flight, or 300 ms (well under the 500 ms that would make it linger).
    let peak = 0;
    const waiting: Array<() => void> = [];
    const wide = await startReceiver((_request, res) => {
      let answered = false;
      const answer = () => {
        if (answered) return;
        answered = true;
        res.writeHead(200).end('{"received":true}');
      };
      waiting.push(answer);
      peak = Math.max(peak, waiting.length);
      if (waiting.length >= 5) for (const release of waiting.splice(0)) release();
      else
        setTimeout(() => {
          waiting.splice(waiting.indexOf(answer), 1);
          answer();
        }, 300);
    });
    receivers.push(wide);
    const edited = await host.api('PATCH', `/v1/installations/${id}`, {
      configuration: { url: wide.url, space_content_updated: true },
    });
    expect(edited.status).toBe(200);
    const burst = await Promise.all(Array.from({ length: 24 }, (_v, i) => post(`after-${i}`)));
    expect(burst.every((res) => res.status === 202)).toBe(true);
    await wide.waitFor(24, 10_000);
    expect(peak).toBeGreaterThan(4);
    expect(host.host.context.delivery.isSlow(id)).toBe(false);
  }, 60_000);
});
