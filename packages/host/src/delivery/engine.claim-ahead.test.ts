import { createServer, type Server } from 'node:http';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../test/ports.js';
import { type AttemptEnd, createDeliveryEngine, type DeliveryJob, type DeliveryQueue } from './engine.js';

/** Every claim of this queue takes this long (a busy database): longer than retry 1's 50 ms of slack. */
const CLAIM_MS = 150;

/** One delivery whose first attempt fails; records each claim's `dueBy` and the retry's due time. */
class SlowClaimQueue implements DeliveryQueue {
  job: DeliveryJob | null = { id: 'dlv_1', eventId: 'evt_1', eventType: 't', body: '{}', attempt: 1 };
  runAt = Date.now();
  leased = false;
  retryDueAt: number | null = null;
  readonly claims: { at: number; dueBy: number }[] = [];
  done: Promise<void>;
  private resolveDone!: () => void;

  constructor() {
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
  }
  async claim(_limit: number, dueBy: number): Promise<DeliveryJob[]> {
    this.claims.push({ at: Date.now(), dueBy });
    await new Promise((resolve) => setTimeout(resolve, CLAIM_MS));
    if (!this.job || this.leased || this.runAt > dueBy) return [];
    this.leased = true;
    return [{ ...this.job, ...(this.job.attempt > 1 ? { dueAt: this.runAt } : {}) }];
  }
  async finish(job: DeliveryJob, _attempt: unknown, end: AttemptEnd): Promise<void> {
    this.leased = false;
    if ('state' in end) {
      this.job = null;
      this.resolveDone();
      return;
    }
    this.job = { ...job, attempt: job.attempt + 1 };
    this.runAt = end.runAt;
    this.retryDueAt = end.runAt;
  }
  async nextDueAt(): Promise<number | null> {
    return this.job && !this.leased ? this.runAt : null;
  }
}

let server: Server;
let url: string;
/** For the engines that never send through it (a stopped clock's `send`, refused options). */
const unused = new Agent();
const arrivals: { attempt: number; at: number }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const attempt = Number(req.headers['x-platform-delivery-attempt']);
    arrivals.push({ attempt, at: Date.now() });
    req.resume();
    req.on('end', () => res.writeHead(attempt === 1 ? 503 : 200).end());
  });
  url = `${await listenOnLoopback(server)}/hook`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await unused.close();
});

async function retryLateness(claimAheadMs: number) {
  arrivals.length = 0;
  const queue = new SlowClaimQueue();
  const dispatcher = new Agent();
  const engine = createDeliveryEngine({
    queue,
    resolveTarget: () => ({ url, secrets: ['whsec_test'] }),
    dispatcher,
    userAgentVersion: 'test',
    claimAheadMs,
    concurrency: 4,
  });
  engine.start();
  await queue.done;
  await engine.stop();
  await dispatcher.close();
  const retry = arrivals.find((a) => a.attempt === 2);
  if (!retry || queue.retryDueAt === null) throw new Error('the retry never arrived');
  return { lateMs: retry.at - queue.retryDueAt, claims: queue.claims };
}

describe('claimAheadMs', () => {
  it('spends a slow claim before the due time: the retry leaves at its due time, never before', async () => {
    const ahead = await retryLateness(200);
    // Never early: the engine sends a job it claimed ahead in the millisecond after its due time.
    expect(ahead.lateMs).toBeGreaterThanOrEqual(1);
    // Without the claim's 150 ms (the control below is late by at least that much). The bound leaves a
    // loaded machine 150 ms for a timer and one loopback request.
    expect(ahead.lateMs).toBeLessThan(CLAIM_MS);
    // Each claim asked for what falls due within the next 200 ms.
    for (const claim of ahead.claims) expect(claim.dueBy - claim.at).toBeGreaterThanOrEqual(199);
  });

  it('without it, the same slow claim makes the retry leave that much after its due time', async () => {
    const control = await retryLateness(0);
    expect(control.lateMs).toBeGreaterThanOrEqual(CLAIM_MS - 2);
    for (const claim of control.claims) expect(claim.dueBy - claim.at).toBeLessThanOrEqual(1);
  });

  it('a first attempt due this millisecond leaves at once; a retry due this millisecond waits for the next', async () => {
    // A clock stopped at 1000 whose timers fire only when told: whatever waits shows up in `timers`.
    const timers: { ms: number; fire: () => void }[] = [];
    const clock = {
      now: () => 1000,
      setTimeout: (fire: () => void, ms: number) => timers.push({ ms, fire }),
      clearTimeout: () => undefined,
    };
    const sent: number[] = [];
    const engine = createDeliveryEngine({
      queue: new SlowClaimQueue(),
      resolveTarget: () => ({ url: 'http://127.0.0.1:1/hook', secrets: ['whsec_test'] }),
      dispatcher: unused,
      userAgentVersion: 'test',
      clock,
      claimAheadMs: 50,
      send: async (input) => {
        sent.push(input.attempt);
        return { startedAt: 1000, durationMs: 0, statusCode: 200 };
      },
    });
    const job = { id: 'dlv_1', eventId: 'evt_1', eventType: 't', body: '{}', dueAt: 1000 };
    await engine.deliver({ ...job, attempt: 1 });
    expect(sent).toEqual([1]);
    expect(timers).toEqual([]);
    const retry = engine.deliver({ ...job, attempt: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([1]); // not in the millisecond it fell due
    expect(timers.map((t) => t.ms)).toEqual([1]);
    clock.now = () => 1001;
    timers[0]?.fire();
    await retry;
    expect(sent).toEqual([1, 2]);
  });

  it('refuses a claimAheadMs that is not a whole number >= 0', () => {
    const base = {
      queue: new SlowClaimQueue(),
      resolveTarget: () => null,
      dispatcher: unused,
      userAgentVersion: 'test',
    };
    expect(() => createDeliveryEngine({ ...base, claimAheadMs: -1 })).toThrow(/claimAheadMs/);
    expect(() => createDeliveryEngine({ ...base, claimAheadMs: 1.5 })).toThrow(/claimAheadMs/);
  });
});
