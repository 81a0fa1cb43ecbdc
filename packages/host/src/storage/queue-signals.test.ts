// Queue signals as another host on the same PostgreSQL schema hears them: each kind on its own channel,
// coalesced by the sender, and the last signal always after the last commit (docs/operations.md,
// "Several hosts"). Real PostgreSQL; CI has it (these tests fail, never skip, without it).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { decodeSignal, encodeSignal, queueChannel } from './queue-signals.js';
import { openStorage, type Storage } from './storage.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `signals_${randomBytes(6).toString('hex')}`;
const opened: Storage[] = [];
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
});

const open = async () => {
  const storage = await openStorage({ databaseUrl: DATABASE_URL, schema, poolSize: 4 });
  opened.push(storage);
  return storage;
};

it('signals: one channel per kind, a payload scoped to its schema and sender', () => {
  expect(queueChannel('deliver')).toBe('platform_jobs_deliver');
  expect(queueChannel('invoke')).toBe('platform_jobs_invoke');
  const payload = encodeSignal('s1', { kind: 'deliver', dueAt: 42 });
  expect(decodeSignal(payload, 's2')).toBeNull(); // another schema's
  expect(decodeSignal(payload, 's1')).toBeNull(); // this process's own
  expect(decodeSignal(payload.replace(/\|[^|]+\|deliver/, '|other:1|deliver'), 's1')).toEqual({
    kind: 'deliver',
    dueAt: 42,
  });
});

it("postgres: a kind's signals go on its own channel, fewer than the transactions, the last after the last commit", async () => {
  const a = await open();
  // Another host's listening connection. (decodeSignal drops a signal of this very process, as a host
  // ignores its own, so the payloads are read here as they are.)
  const listener = new pg.Client({ connectionString: DATABASE_URL });
  await listener.connect();
  const heard: { channel: string; queued: Promise<number> }[] = [];
  const countQueued = async () => {
    const { rows } = await listener.query(
      `SELECT COUNT(*)::int AS n FROM ${schema}.jobs WHERE kind = 'deliver' AND state = 'queued'`,
    );
    return Number(rows[0]?.n);
  };
  listener.on('notification', (message) => {
    if (message.payload?.startsWith(`${schema}|`))
      heard.push({ channel: message.channel, queued: countQueued() });
  });
  try {
    await listener.query(`LISTEN ${queueChannel('deliver')}`);
    await listener.query(`LISTEN ${queueChannel('invoke')}`);
    const transactions = 60;
    // Due later (a retry's time): work due now is its home's, signalled only as a call for help (next test).
    const later = Date.now() + 60_000;
    for (let i = 0; i < transactions; i++) {
      await a.transaction((tx) =>
        tx.jobs.enqueue([{ kind: 'deliver', installationId: 'inst_signals', payload: { i }, runAt: later }]),
      );
    }
    // Wait for the trailing signal (window 5 ms) and its delivery.
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      const last = heard.at(-1);
      if (last && (await last.queued) === transactions) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(heard.every((h) => h.channel === 'platform_jobs_deliver')).toBe(true); // none on invoke's
    expect(heard.length).toBeGreaterThanOrEqual(1);
    expect(heard.length).toBeLessThanOrEqual(transactions);
    // The last signal is sent once every transaction it stands for has committed: all 60 are visible.
    expect(await heard.at(-1)?.queued).toBe(transactions);
  } finally {
    await listener.end();
  }
});

/**
 * Another host's listening connection on the deliver channel: the due times of this schema's signals as
 * they arrive, and a wait (5 s at most) for one to come.
 */
async function hearDueTimes() {
  const listener = new pg.Client({ connectionString: DATABASE_URL });
  await listener.connect();
  const dueTimes: number[] = [];
  listener.on('notification', (message) => {
    if (message.payload?.startsWith(`${schema}|`)) dueTimes.push(Number(message.payload.split('|')[3]));
  });
  await listener.query(`LISTEN ${queueChannel('deliver')}`);
  const waitFor = async (found: () => boolean) => {
    const deadline = Date.now() + 5_000;
    while (!found() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  return { dueTimes, waitFor, listener };
}

it("postgres: work due now is its home's and sends no signal, unless the home asks for help", async () => {
  const a = await open();
  const { dueTimes, waitFor, listener } = await hearDueTimes();
  try {
    const start = Date.now();
    for (let i = 0; i < 10; i++)
      await a.transaction((tx) =>
        tx.jobs.enqueue([{ kind: 'deliver', installationId: 'inst_now', payload: { i } }]),
      );
    const later = Date.now() + 60_000;
    await a.jobs.enqueue([{ kind: 'deliver', installationId: 'inst_later', payload: {}, runAt: later }]);
    // A signal for the work due now would come first, or carry the earlier time in place of `later`.
    await waitFor(() => dueTimes.includes(later));
    expect(dueTimes).toEqual([later]);
    const asked = Date.now();
    await a.jobs.askForHelp('deliver');
    await waitFor(() => dueTimes.length > 1);
    expect(dueTimes).toHaveLength(2);
    expect(dueTimes[1]).toBeGreaterThanOrEqual(asked);
    expect(dueTimes[1]).toBeLessThan(start + 60_000);
  } finally {
    await listener.end();
  }
});

it('postgres: a deferred retry is signalled for its time; a deferred first attempt stays its home’s', async () => {
  const a = await open();
  const { dueTimes, waitFor, listener } = await hearDueTimes();
  try {
    const [first, retry] = await a.jobs.enqueue([
      { kind: 'deliver', installationId: 'inst_defer', payload: { n: 1 } },
      { kind: 'deliver', installationId: 'inst_defer', payload: { n: 2 } },
    ]);
    await listener.query(`UPDATE ${schema}.jobs SET attempt = 1 WHERE id = $1`, [retry!.id]);
    // (The schema holds the other tests' jobs too: only these two are deferred.)
    const mine = new Set([first!.id, retry!.id]);
    const claimed = (
      await a.jobs.claim({ kinds: ['deliver'], limit: 100, leaseMs: 60_000, now: Date.now() })
    ).filter((job) => mine.has(job.id));
    expect(claimed).toHaveLength(2);
    const firstAt = Date.now() + 60_000;
    const retryAt = firstAt + 10_000;
    const deferred = await a.jobs.defer(
      claimed.map((job) => ({
        id: job.id,
        leaseToken: job.leaseToken,
        runAt: job.id === first!.id ? firstAt : retryAt,
      })),
      Date.now(),
    );
    expect(deferred).toBe(2);
    // One signal per kind carries the earliest due time: had the first attempt been signalled, it would
    // say `firstAt`, and `retryAt` would never come.
    await waitFor(() => dueTimes.includes(retryAt));
    expect(dueTimes).toEqual([retryAt]);
  } finally {
    await listener.end();
  }
});
