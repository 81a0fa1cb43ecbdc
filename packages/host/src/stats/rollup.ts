/**
 * The statistics rollup (docs/operations.md "Charts"): on the main thread, once a minute, it recomputes
 * the per-minute figures of the last few minutes from the attempts themselves (`job_attempts`, through
 * its `started_at` index, a page at a time), samples the backlog into the current minute, recomputes
 * the hours those minutes belong to from the minute rows, and prunes minute rows after a day and hour
 * rows after 30 days. Every write is an upsert of recomputed figures keyed by (resolution, installation,
 * bucket), so a minute rolled up twice, or by several hosts on one PostgreSQL database, counts once.
 * The delivery path does nothing for it.
 */
import type { AttemptCursor, StatsRow, Storage } from '../storage/index.js';
import {
  addFigures,
  emptyFigures,
  type Figures,
  HOST_WIDE,
  HOUR_MS,
  MINUTE_MS,
  summarize,
} from './figures.js';
import { decode, encode } from './histogram.js';

/** Minute rows are kept this long (a day, and the hour being rolled up from them). */
export const MINUTE_KEEP_MS = 25 * HOUR_MS;
/** Hour rows are kept this long. */
export const HOUR_KEEP_MS = 30 * 24 * HOUR_MS;
/** The settings key of the time the last rollup ran to. */
export const ROLLED_UNTIL_KEY = 'stats_rolled_until';
/** Without a previous run, the first one rolls up this much of the past. */
const FIRST_RUN_MS = HOUR_MS;
/** Attempts read per statement. */
const PAGE = 500;

const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));
const floorTo = (t: number, size: number) => Math.floor(t / size) * size;

/**
 * When the last rollup (of any host on the database) ran to, or null before the first.
 *
 * @example
 * await rolledUntil(storage); // 1700000000000
 */
export async function rolledUntil(storage: Pick<Storage, 'settings'>): Promise<number | null> {
  const value = Number(await storage.settings.get(ROLLED_UNTIL_KEY));
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** What {@link rollupOnce} did. */
export interface RollupResult {
  /** Minutes recomputed, and the attempts read for them. */
  minutes: number;
  attempts: number;
  hours: number;
  pruned: number;
}

/** Figures → the stored row. */
export function toRow(resolutionMs: number, installationId: string, bucketAt: number, f: Figures): StatsRow {
  return {
    resolutionMs,
    installationId,
    bucketAt,
    attempts: f.attempts,
    succeeded: f.succeeded,
    retried: f.retried,
    failed: f.failed,
    durationHist: encode(f.durations),
    firstAttemptHist: encode(f.firstAttempt),
    backlogQueued: f.backlogQueued,
    backlogDue: f.backlogDue,
  };
}

/**
 * A stored row → figures.
 *
 * @example
 * const figures = fromRow(row); // histograms decoded
 */
export function fromRow(row: StatsRow): Figures {
  return {
    attempts: row.attempts,
    succeeded: row.succeeded,
    retried: row.retried,
    failed: row.failed,
    durations: decode(row.durationHist),
    firstAttempt: decode(row.firstAttemptHist),
    backlogQueued: row.backlogQueued,
    backlogDue: row.backlogDue,
  };
}

/** The figures of one minute per installation and host-wide, read a page of attempts at a time. */
async function minuteFigures(
  storage: Storage,
  minute: number,
): Promise<{ figures: Map<string, Figures>; read: number }> {
  const figures = new Map<string, Figures>();
  let after: AttemptCursor | null = null;
  let read = 0;
  for (;;) {
    const page = await storage.deliveryStats.attempts(minute, minute + MINUTE_MS, after, PAGE);
    summarize(page, figures);
    read += page.length;
    const last = page.at(-1);
    if (!last || page.length < PAGE) break;
    after = { startedAt: last.startedAt, jobId: last.jobId, series: last.series, number: last.number };
    await yieldToIo();
  }
  if (!figures.has(HOST_WIDE)) figures.set(HOST_WIDE, emptyFigures());
  return { figures, read };
}

/**
 * One rollup run at `now` (docs/operations.md "Charts"): recomputes every minute from `settleMs` before
 * the previous run (or an hour back, the first time; at most a day back) to the current one, samples the
 * backlog into the current minute, recomputes the hours of those minutes, prunes old rows.
 *
 * @example
 * const result = await rollupOnce(storage, Date.now()); // { minutes: 3, attempts: 1200, hours: 1, pruned: 0 }
 */
export async function rollupOnce(
  storage: Storage,
  now: number,
  options: { settleMs?: number } = {},
): Promise<RollupResult> {
  const settleMs = options.settleMs ?? 2 * MINUTE_MS;
  const stored = await rolledUntil(storage);
  const since = stored === null ? now - FIRST_RUN_MS : stored - settleMs;
  const first = floorTo(Math.max(since, now - 24 * HOUR_MS), MINUTE_MS);
  const current = floorTo(now, MINUTE_MS);
  let attempts = 0;
  let minutes = 0;
  for (let minute = first; minute <= current; minute += MINUTE_MS) {
    const { figures, read } = await minuteFigures(storage, minute);
    attempts += read;
    minutes += 1;
    if (minute === current) {
      for (const f of figures.values()) {
        f.backlogQueued = 0;
        f.backlogDue = 0;
      }
      let queuedAll = 0;
      let dueAll = 0;
      for (const { installationId, queued, due } of await storage.deliveryStats.backlog(now)) {
        const f = figures.get(installationId) ?? emptyFigures();
        f.backlogQueued = queued;
        f.backlogDue = due;
        figures.set(installationId, f);
        queuedAll += queued;
        dueAll += due;
      }
      const host = figures.get(HOST_WIDE) as Figures;
      host.backlogQueued = queuedAll;
      host.backlogDue = dueAll;
    } else if ((figures.get(HOST_WIDE) as Figures).attempts === 0) {
      continue;
    }
    const rows = [...figures].map(([id, f]) => toRow(MINUTE_MS, id, minute, f));
    await storage.deliveryStats.upsert(rows, now);
    await yieldToIo();
  }
  let hours = 0;
  for (let hour = floorTo(first, HOUR_MS); hour <= current; hour += HOUR_MS) {
    const byInstallation = new Map<string, Figures>();
    for (const row of await storage.deliveryStats.readAll(MINUTE_MS, hour, hour + HOUR_MS)) {
      const f = byInstallation.get(row.installationId) ?? emptyFigures();
      byInstallation.set(row.installationId, addFigures(f, fromRow(row)));
    }
    if (byInstallation.size === 0) continue;
    await storage.deliveryStats.upsert(
      [...byInstallation].map(([id, f]) => toRow(HOUR_MS, id, hour, f)),
      now,
    );
    hours += 1;
  }
  const pruned =
    (await storage.deliveryStats.prune(MINUTE_MS, now - MINUTE_KEEP_MS)) +
    (await storage.deliveryStats.prune(HOUR_MS, now - HOUR_KEEP_MS));
  await storage.settings.set(ROLLED_UNTIL_KEY, String(now), now);
  return { minutes, attempts, hours, pruned };
}
