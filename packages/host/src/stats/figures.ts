/**
 * The delivery figures of one bucket of time (a minute, an hour) for one installation or the whole host,
 * and how they are made from attempts and added up. Pure functions: the rollup (rollup.ts) reads the
 * rows and writes the results; the delivery path does nothing for them.
 */
import { type AttemptOutcome, classify } from '../delivery/policy.js';
import { decide } from '../jobs/policy.js';
import type { AttemptRow } from '../storage/index.js';
import { type Histogram, merge, record } from './histogram.js';

/** The installation id of the host-wide rows. */
export const HOST_WIDE = '';

/** Minute and hour buckets, in ms. */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/** One attempt of a delivery as the rollup reads it (`job_attempts` joined with its job), without its job's id. */
export type AttemptFact = Omit<AttemptRow, 'jobId'>;

/** The figures of one bucket. */
export interface Figures {
  /** Attempts started in the bucket. */
  attempts: number;
  /** Of them, answered 2xx. */
  succeeded: number;
  /** Failed, and another attempt follows (429, 5xx, network errors before the last attempt). */
  retried: number;
  /** Failed for good: a final failure (4xx, blocked target, ...) or the last attempt of a retryable one (exhausted). */
  failed: number;
  /** Attempt durations (ms). */
  durations: Histogram;
  /** Accepted → first attempt started (ms), for the first attempt of each delivery (not of a redelivery). */
  firstAttempt: Histogram;
  /** Deliveries waiting (queued or held) when the bucket was sampled; null when it was not. */
  backlogQueued: number | null;
  /** Of them, due. */
  backlogDue: number | null;
}

/**
 * Empty figures.
 *
 * @example
 * emptyFigures().attempts; // 0
 */
export function emptyFigures(): Figures {
  return {
    attempts: 0,
    succeeded: 0,
    retried: 0,
    failed: 0,
    durations: [],
    firstAttempt: [],
    backlogQueued: null,
    backlogDue: null,
  };
}

/**
 * What an attempt's outcome was, by the delivery policy itself (delivery/policy.ts `classify`, jobs/policy.ts `decide`): `succeeded`,
 * `retried` (another attempt follows) or `failed` (final: failed or exhausted).
 *
 * @example
 * outcomeOf({ statusCode: 503, errorCode: null, number: 1 }); // 'retried'
 * outcomeOf({ statusCode: 503, errorCode: null, number: 4 }); // 'failed' (exhausted)
 * outcomeOf({ statusCode: null, errorCode: null, number: 1 }); // 'succeeded' (a broker's acknowledgement)
 */
export function outcomeOf(
  attempt: Pick<AttemptFact, 'statusCode' | 'errorCode' | 'number'>,
): 'succeeded' | 'retried' | 'failed' {
  // Neither a status nor an error: a broker destination acknowledged the message (delivery/policy.ts).
  const outcome: AttemptOutcome =
    attempt.statusCode !== null
      ? { statusCode: attempt.statusCode }
      : attempt.errorCode === null
        ? { acknowledged: true }
        : { error: { code: attempt.errorCode } };
  const decision = decide(attempt.number, classify(outcome), () => 0);
  if (!('state' in decision)) return 'retried';
  return decision.state === 'succeeded' ? 'succeeded' : 'failed';
}

/**
 * Adds one attempt to `figures` (in place).
 *
 * @example
 * const f = emptyFigures();
 * addAttempt(f, { installationId: 'i', series: 1, number: 1, startedAt: 1050, durationMs: 12, statusCode: 200, errorCode: null, createdAt: 1000 });
 * f.succeeded; // 1
 */
export function addAttempt(figures: Figures, attempt: AttemptFact): void {
  figures.attempts += 1;
  figures[outcomeOf(attempt)] += 1;
  record(figures.durations, attempt.durationMs);
  if (attempt.series === 1 && attempt.number === 1) {
    record(figures.firstAttempt, Math.max(0, attempt.startedAt - attempt.createdAt));
  }
}

/**
 * Adds `other` into `into` (in place): counts and histograms add up; backlog samples take the larger
 * (an hour's backlog is the most that waited at any of its minutes' samples).
 *
 * @example
 * const hour = emptyFigures();
 * for (const minute of minutes) addFigures(hour, minute);
 */
export function addFigures(into: Figures, other: Figures): Figures {
  into.attempts += other.attempts;
  into.succeeded += other.succeeded;
  into.retried += other.retried;
  into.failed += other.failed;
  merge(into.durations, other.durations);
  merge(into.firstAttempt, other.firstAttempt);
  const most = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
  into.backlogQueued = most(into.backlogQueued, other.backlogQueued);
  into.backlogDue = most(into.backlogDue, other.backlogDue);
  return into;
}

/**
 * The figures of a set of attempts, per installation and host-wide (`HOST_WIDE`). The host-wide entry is
 * always present.
 *
 * @example
 * const byInstallation = summarize(attempts);
 * byInstallation.get(HOST_WIDE)?.attempts; // attempts.length
 */
export function summarize(
  attempts: Iterable<AttemptFact>,
  into = new Map<string, Figures>(),
): Map<string, Figures> {
  if (!into.has(HOST_WIDE)) into.set(HOST_WIDE, emptyFigures());
  const host = into.get(HOST_WIDE) as Figures;
  for (const attempt of attempts) {
    let figures = into.get(attempt.installationId);
    if (!figures) {
      figures = emptyFigures();
      into.set(attempt.installationId, figures);
    }
    addAttempt(figures, attempt);
    addAttempt(host, attempt);
  }
  return into;
}
