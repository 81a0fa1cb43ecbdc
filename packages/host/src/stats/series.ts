/**
 * The delivery series an operator charts (`GET /v1/stats/deliveries`): the stored minute or hour rows of
 * a range, added up into the range's buckets (every bucket present, empty ones with zeros), with the
 * percentiles read from the histograms.
 */
import type { Storage } from '../storage/index.js';
import { addFigures, emptyFigures, type Figures, HOST_WIDE, HOUR_MS, MINUTE_MS } from './figures.js';
import { percentile } from './histogram.js';
import { fromRow, rolledUntil } from './rollup.js';

/** The ranges a series covers. */
export const RANGES = ['hour', 'day', 'week'] as const;
/** A range: the last hour (1-minute buckets), day (5-minute buckets) or week (1-hour buckets). */
export type StatsRange = (typeof RANGES)[number];

/** Bucket size, number of buckets, and the stored resolution they are made of, per range. */
const SHAPE: Record<StatsRange, { bucketMs: number; buckets: number; resolutionMs: number }> = {
  hour: { bucketMs: MINUTE_MS, buckets: 60, resolutionMs: MINUTE_MS },
  day: { bucketMs: 5 * MINUTE_MS, buckets: 288, resolutionMs: MINUTE_MS },
  week: { bucketMs: HOUR_MS, buckets: 168, resolutionMs: HOUR_MS },
};

/** Percentiles in ms (null: no value in the bucket). */
export interface Percentiles {
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/** One bucket of a series. */
export interface StatsBucket {
  /** Start of the bucket (ISO 8601). */
  at: string;
  attempts: number;
  succeeded: number;
  retried: number;
  failed: number;
  /** succeeded / attempts (null without attempts). */
  successRate: number | null;
  duration: Percentiles;
  firstAttempt: Percentiles;
  /** Waiting deliveries sampled in the bucket (the most of its samples); null when none was taken. */
  backlog: { queued: number; due: number } | null;
}

/** A series (`GET /v1/stats/deliveries`). */
export interface DeliverySeries {
  range: StatsRange;
  /** The installation, or null for the whole host. */
  installationId: string | null;
  bucketSeconds: number;
  from: string;
  to: string;
  /** When the rollup last ran (ISO 8601), or null before its first run. */
  rolledUpAt: string | null;
  buckets: StatsBucket[];
}

const percentiles = (histogram: readonly number[]): Percentiles => ({
  p50: percentile(histogram, 0.5),
  p95: percentile(histogram, 0.95),
  p99: percentile(histogram, 0.99),
});

/**
 * A bucket's figures as the API shows them.
 *
 * @example
 * toBucket(0, emptyFigures()).successRate; // null
 */
export function toBucket(at: number, f: Figures): StatsBucket {
  return {
    at: new Date(at).toISOString(),
    attempts: f.attempts,
    succeeded: f.succeeded,
    retried: f.retried,
    failed: f.failed,
    successRate: f.attempts === 0 ? null : f.succeeded / f.attempts,
    duration: percentiles(f.durations),
    firstAttempt: percentiles(f.firstAttempt),
    backlog: f.backlogQueued === null ? null : { queued: f.backlogQueued, due: f.backlogDue ?? 0 },
  };
}

/**
 * The series of a range ending now, host-wide (`installationId` null) or of one installation.
 *
 * @example
 * const series = await deliverySeries(storage, { range: 'hour', installationId: null });
 * series.buckets.length; // 60
 */
export async function deliverySeries(
  storage: Storage,
  query: { range: StatsRange; installationId: string | null },
  now = Date.now(),
): Promise<DeliverySeries> {
  const { bucketMs, buckets, resolutionMs } = SHAPE[query.range];
  const end = Math.floor(now / bucketMs) * bucketMs + bucketMs;
  const start = end - buckets * bucketMs;
  const figures = Array.from({ length: buckets }, () => emptyFigures());
  const rows = await storage.deliveryStats.read(resolutionMs, query.installationId ?? HOST_WIDE, start, end);
  for (const row of rows) {
    const index = Math.floor((row.bucketAt - start) / bucketMs);
    const into = figures[index];
    if (into) addFigures(into, fromRow(row));
  }
  const rolled = await rolledUntil(storage);
  return {
    range: query.range,
    installationId: query.installationId,
    bucketSeconds: bucketMs / 1000,
    from: new Date(start).toISOString(),
    to: new Date(end).toISOString(),
    rolledUpAt: rolled === null ? null : new Date(rolled).toISOString(),
    buckets: figures.map((f, i) => toBucket(start + i * bucketMs, f)),
  };
}
