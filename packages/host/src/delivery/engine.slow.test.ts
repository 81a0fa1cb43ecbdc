import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOW_ATTEMPT_MS } from '../jobs/fair-share.js';
import { createGuardedDispatcher } from '../net/dispatcher.js';
import { parseAllowPrivateTargets } from '../net/policy.js';
import { type AttemptEnd, createDeliveryEngine, type DeliveryJob, type DeliveryQueue } from './engine.js';

/**
 * The fair share measures the endpoint: from the start of the HTTP request to the end of its response,
 * never the host's own storage work around it. A database slower than the slow-endpoint threshold (every
 * claim, target read and attempt record takes longer than 500 ms here) never makes a healthy endpoint slow;
 * an endpoint that does not answer still is.
 */

/** Longer than SLOW_ATTEMPT_MS: every storage step of the host takes this long. */
const DB_MS = SLOW_ATTEMPT_MS + 300;

type Job = DeliveryJob & { target: 'fast' | 'hang' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An in-memory queue whose every call is as slow as a database under heavy load. */
class SlowQueue implements DeliveryQueue<Job> {
  readonly pending: Job[] = [];
  readonly finished: Array<{ job: Job; end: AttemptEnd; statusCode?: number }> = [];
  async claim(limit: number): Promise<Job[]> {
    await sleep(DB_MS);
    return this.pending.splice(0, limit);
  }
  async finish(job: Job, attempt: { statusCode?: number }, end: AttemptEnd): Promise<void> {
    await sleep(DB_MS);
    this.finished.push({ job, end, ...(attempt.statusCode ? { statusCode: attempt.statusCode } : {}) });
  }
  async nextDueAt(): Promise<number | null> {
    return null;
  }
  async release(jobs: Job[]): Promise<void> {
    this.pending.push(...jobs);
  }
}

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    if (req.url === '/fast') req.on('end', () => res.writeHead(200).end('ok'));
    // /hang: never answers (the attempt times out)
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function engineOn(queue: SlowQueue, slowEvents: Array<[string, boolean]>) {
  const policy = parseAllowPrivateTargets('127.0.0.1/32');
  return createDeliveryEngine<Job>({
    queue,
    dispatcher: createGuardedDispatcher(policy),
    policy,
    userAgentVersion: 'test',
    timeoutMs: 2_000,
    concurrency: 4,
    idleCheckMs: 50,
    resolveTarget: async (job) => {
      await sleep(DB_MS); // reading the installation's URL and secrets
      return { url: `${base}/${job.target}`, secrets: ['whsec_test'] };
    },
    perTarget: {
      targetOf: (job) => job.target,
      limit: 1,
      onSlow: (target, slow) => slowEvents.push([target, slow]),
    },
  });
}

const job = (i: number, target: Job['target']): Job => ({
  id: `dlv_${target}_${i}`,
  eventId: `evt_${i}`,
  eventType: 'space_content_updated',
  body: '{}',
  attempt: 1,
  target,
});

/** Runs an engine on `queue` until it finished `count` jobs (or `timeoutMs` passed): the slow flags it raised. */
async function runUntilFinished(queue: SlowQueue, count: number, timeoutMs: number) {
  const slowEvents: Array<[string, boolean]> = [];
  const engine = engineOn(queue, slowEvents);
  engine.start();
  const deadline = Date.now() + timeoutMs;
  while (queue.finished.length < count && Date.now() < deadline) await sleep(50);
  await engine.stop();
  return slowEvents;
}

describe('slow-endpoint detection times the HTTP exchange, not the host', () => {
  it('a healthy endpoint is never flagged while every storage step takes longer than the threshold', async () => {
    const queue = new SlowQueue();
    queue.pending.push(...Array.from({ length: 6 }, (_v, i) => job(i, 'fast')));
    const slowEvents = await runUntilFinished(queue, 6, 30_000);
    expect(queue.finished.map((f) => f.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(slowEvents).toEqual([]);
  }, 40_000);

  it('an endpoint that does not answer is still flagged slow', async () => {
    const queue = new SlowQueue();
    queue.pending.push(job(0, 'hang'));
    const slowEvents = await runUntilFinished(queue, 1, 20_000);
    expect(slowEvents).toContainEqual(['hang', true]);
    expect(queue.finished[0]?.end).toMatchObject({ runAt: expect.any(Number) }); // timed out: retried later
  }, 30_000);
});
