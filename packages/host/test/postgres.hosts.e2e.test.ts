import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { verify } from '@platform/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKey } from '../src/secrets/index.js';
import { createTestDatabase, type TestDatabase } from './backends.js';
import { ADMIN_TOKEN, type Receiver, spawnHostProcess, startReceiver } from './helpers.js';
import { freeLoopbackPort } from './ports.js';

/**
 * Several real host processes on one PostgreSQL database (docs/operations.md, "Several hosts"): work one host
 * accepts is claimed at once by another with free slots (queue signals, no polling in the latency path);
 * when a host is killed with -9 mid-stream, the others take over its leased deliveries after the lease,
 * every accepted event is delivered, and every retry it had scheduled still leaves inside its window.
 */

interface RunningHost {
  child: ChildProcess;
  base: string;
}

const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

let database: TestDatabase | undefined;
let dataDir: string | undefined;
const hosts: RunningHost[] = [];
const receivers: Receiver[] = [];

afterEach(async () => {
  for (const h of hosts.splice(0)) h.child.kill('SIGKILL');
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await database?.drop();
  database = undefined;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

async function startHosts(settings: Array<Record<string, string>>): Promise<RunningHost[]> {
  database = await createTestDatabase();
  dataDir = await mkdtemp(join(tmpdir(), 'platform-hosts-'));
  const db = database;
  const dir = dataDir;
  const secretsKey = generateKey();
  // Started together: migrations and the built-in publish must be safe when raced.
  const started = await Promise.all(
    settings.map(async (env, i) => {
      const port = await freeLoopbackPort();
      const child = await spawnHostProcess(port, {
        DATABASE_URL: db.url,
        PLATFORM_DATA_DIR: join(dir, `host-${i}`),
        // hosts on one database share its secrets key (docs/operations.md "Secrets key")
        PLATFORM_SECRETS_KEY: secretsKey,
        ...env,
      });
      return { child, base: `http://127.0.0.1:${port}` };
    }),
  );
  hosts.push(...started);
  return started;
}

async function installWebhook(host: RunningHost, url: string, space: string): Promise<string> {
  const res = await fetch(`${host.base}/v1/installations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      integration: 'webhook',
      space,
      configuration: { url, space_content_updated: true },
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function postEvent(host: RunningHost, space: string, revisionId: string): Promise<string | null> {
  const res = await fetch(`${host.base}/v1/events`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'space_content_updated', spaceId: space, revisionId }),
  }).catch(() => null);
  if (res?.status !== 202) return null; // a killed host accepts nothing: nothing was acknowledged
  return ((await res.json()) as { eventId: string }).eventId;
}

const eventIdOf = (body: string) => JSON.parse(body).eventId as string;

describe('several hosts on one PostgreSQL database', () => {
  it('an event accepted by a host with no free slot is claimed at once by another (queue signals, polling off)', async () => {
    // Polling is as good as off (10 minutes): only the queue signals can tell host B of A's work. A has one
    // delivery slot; at 500 ms per answer it alone would need 12 s for 24 events.
    const quiet = { PLATFORM_QUEUE_POLL_MS: '600000' };
    const [a, b] = await startHosts([
      { ...quiet, PLATFORM_DELIVERY_CONCURRENCY: '1' },
      { ...quiet, PLATFORM_DELIVERY_CONCURRENCY: '8' },
    ]);
    const receiver = await startReceiver((_request, res) => {
      setTimeout(() => res.writeHead(200).end('{"received":true}'), 500);
    });
    receivers.push(receiver);
    await installWebhook(a!, receiver.url, 'signals');
    expect(b).toBeDefined();
    const started = Date.now();
    const accepted = await Promise.all(
      Array.from({ length: 24 }, (_v, i) => postEvent(a!, 'signals', `r${i}`)),
    );
    expect(accepted.every((id) => id !== null)).toBe(true);
    await receiver.waitFor(24, 9_000);
    // Well under the 12 s one host would need: B took A's queued work as it was committed.
    expect(Date.now() - started).toBeLessThan(9_000);
    expect(new Set(receiver.received.map((r) => eventIdOf(r.body)))).toEqual(new Set(accepted));
  }, 60_000);

  it('what a host keeps in memory (routes, delivery targets) follows changes made through another host', async () => {
    const [a, b] = await startHosts([{}, {}]);
    const [r1, r2, r3] = await Promise.all([startReceiver(), startReceiver(), startReceiver()]);
    receivers.push(r1!, r2!, r3!);
    const space = 'follows';
    const call = async (host: RunningHost, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${host.base}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      return res.status === 204 ? null : ((await res.json()) as Record<string, unknown>);
    };
    const first = await installWebhook(b!, r1!.url, space);
    // Each event goes to A, which has read its routes (and its delivery thread the targets) before.
    const deliver = async (revisionId: string, expected: Receiver[]) => {
      const eventId = await postEvent(a!, space, revisionId);
      expect(eventId).not.toBeNull();
      for (const r of expected) {
        await expect
          .poll(() => r.received.some((x) => eventIdOf(x.body) === eventId), { timeout: 10_000 })
          .toBe(true);
      }
      return eventId!;
    };
    await deliver('warm-1', [r1!]);
    await deliver('warm-2', [r1!]);

    // A second installation, made through B: A's next event reaches it.
    const second = await installWebhook(b!, r2!.url, space);
    await deliver('after-install', [r1!, r2!]);

    // The first installation's URL changed through B: A delivers to the new one, not the old.
    await call(b!, 'PATCH', `/v1/installations/${first}`, { configuration: { url: r3!.url } });
    const moved = await deliver('after-url-change', [r2!, r3!]);

    // Its secret rotated through B: A signs with the new one (and the previous, as a rotation does).
    const rotated = (await call(b!, 'POST', `/v1/installations/${first}/webhook-secret/rotate`)) as {
      secret: string;
    };
    const signed = await deliver('after-rotation', [r3!]);
    const request = r3!.received.find((x) => eventIdOf(x.body) === signed)!;
    await expect(
      verify(request.body, String(request.headers['x-platform-signature']), rotated.secret),
    ).resolves.toBeTruthy();

    // The second one uninstalled through B: A's next event no longer goes there.
    await call(b!, 'DELETE', `/v1/installations/${second}`);
    const last = await deliver('after-uninstall', [r3!]);
    // Give a wrong delivery time to show up; none does.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(r1!.received.some((x) => [moved, signed, last].includes(eventIdOf(x.body)))).toBe(false);
    expect(r2!.received.some((x) => eventIdOf(x.body) === last)).toBe(false);
  }, 60_000);

  describe.each([2, 3])('kill -9 of one of %i hosts mid-stream', (count) => {
    it('loses no accepted event, never makes more than 4 attempts, and every other retry lands in its window', async () => {
      const running = await startHosts(Array.from({ length: count }, () => ({})));
      // Each event's first attempt gets a 500 (so each has a retry, 1.0-1.1 s later); later ones a 200.
      const hold = 150;
      const arrivals = new Map<string, number[]>();
      const receiver = await startReceiver((request, res) => {
        const id = eventIdOf(request.body);
        const seen = arrivals.get(id) ?? [];
        seen.push(request.at);
        arrivals.set(id, seen);
        setTimeout(() => res.writeHead(seen.length === 1 ? 500 : 200).end(), hold);
      });
      receivers.push(receiver);
      const stalls = monitorEventLoopDelay({ resolution: 10 });
      stalls.enable();
      const installation = await installWebhook(running[0]!, receiver.url, 'takeover');

      const accepted: string[] = [];
      const refusedByLiving: number[] = [];
      let killedAt = 0;
      const victim = running[0]!;
      for (let i = 0; i < 90; i++) {
        const host = running[i % count]!;
        const id = await postEvent(host, 'takeover', `r${i}`);
        if (id) accepted.push(id);
        else if (host !== victim || killedAt === 0) refusedByLiving.push(i);
        if (i === 45) {
          killedAt = Date.now();
          victim.child.kill('SIGKILL');
        }
        await new Promise((r) => setTimeout(r, 15));
      }
      expect(killedAt).toBeGreaterThan(0);
      // Deliveries the victim had in flight come back when their lease expires (2 s attempt + 5 s); done
      // when the hosts' own attempt log says every accepted event succeeded.
      const survivor = running[1]!;
      type Log = {
        deliveries: Array<{ eventId: string; state: string; attempts: Array<{ statusCode?: number }> }>;
      };
      const readLog = async () =>
        (await fetch(`${survivor.base}/v1/installations/${installation}/deliveries?limit=200`, {
          headers,
        }).then((r) => r.json())) as Log;
      const done = (l: Log) =>
        l.deliveries.length === accepted.length && l.deliveries.every((d) => d.state === 'succeeded');
      const deadline = Date.now() + 45_000;
      let log = await readLog();
      while (!done(log) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        log = await readLog();
      }
      stalls.disable();
      const stall = Math.round(stalls.max / 1e6);

      expect(refusedByLiving).toEqual([]); // only events posted to the dead host were refused
      expect(log.deliveries.filter((d) => d.state !== 'succeeded')).toEqual([]); // 0 lost
      expect(new Set(log.deliveries.map((d) => d.eventId))).toEqual(new Set(accepted));
      expect(Math.max(...[...arrivals.values()].map((a) => a.length))).toBeLessThanOrEqual(4);

      // Retry 1 leaves 1.0-1.1 s after attempt 1 ended (arrival + hold), except where the victim died before
      // it recorded attempt 1: the lease brought the job back and another host made attempt 1 again (the log
      // then starts with the 200).
      const recorded = new Map(log.deliveries.map((d) => [d.eventId, d.attempts.map((a) => a.statusCode)]));
      const takenOver = accepted.filter((id) => recorded.get(id)?.[0] === 200);
      // A retry the victim had already claimed (claimed up to 50 ms ahead of its due time, then sent at it)
      // when it was killed comes back when that claim's lease expires: the attempt timeout (2 s) + 5 s after
      // the claim. That is the at-least-once rule working, not a late retry: such a retry is due within a
      // moment of the kill and arrives after a lease, and it is checked against the lease, not the window.
      const leaseMs = 2000 + 5000;
      const heldByVictim: string[] = [];
      const lateness: number[] = [];
      for (const id of accepted) {
        if (takenOver.includes(id)) continue;
        expect(recorded.get(id)?.[0], `attempt log of ${id}`).toBe(500);
        const [first, second] = arrivals.get(id)!;
        const ended = first! + hold;
        const gap = second! - ended;
        expect(gap, `retry of ${id}: ${gap} ms after attempt 1`).toBeGreaterThanOrEqual(1000 - 20);
        const due = ended + 1000;
        if (gap > 1100 + 500 + stall && Math.abs(due - killedAt) <= 1000 + stall) {
          heldByVictim.push(id);
          expect(
            gap,
            `retry of ${id}, claimed by the killed host: ${gap} ms after attempt 1, more than its lease (${leaseMs} ms) allows`,
          ).toBeLessThanOrEqual(1100 + leaseMs + 1000 + stall);
          continue;
        }
        expect(
          gap,
          `retry of ${id}: ${gap} ms after attempt 1 (stall ${stall} ms; due ${due - killedAt} ms after the kill): a late retry`,
        ).toBeLessThanOrEqual(1100 + 500 + stall);
        lateness.push(Math.max(0, gap - 1100));
      }
      // a kill catches at most the few retries claimed in the same moment
      expect(
        heldByVictim.length,
        `retries held by the killed host: ${heldByVictim.join(', ')}`,
      ).toBeLessThanOrEqual(5);
      // Only what the victim held when it died was taken over (a handful), never the retries it had scheduled.
      expect(takenOver.length).toBeLessThan(accepted.length / 4);
      lateness.sort((x, y) => x - y);
      expect(lateness[Math.floor(lateness.length / 2)], JSON.stringify(lateness)).toBeLessThanOrEqual(60);
    }, 120_000);
  });
});
