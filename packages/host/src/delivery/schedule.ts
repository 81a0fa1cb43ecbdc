/**
 * Retry schedules of webhook installations (docs/contracts.md "Retry schedules"). Pure functions: no clock,
 * no I/O. The spec's schedule (`spec`: 1, 2, 4 s, +0-10 %, 3 retries) stays the default and is decided by
 * `policy.ts` exactly as before; an installation opts into a longer one with its `retry_schedule` setting.
 */
import { parseDuration, UNIT_MS } from '../duration.js';
import {
  type Classification,
  type Decision,
  DRAWN_SHARE,
  decide,
  JITTER_RATIO,
  MAX_RETRIES,
  arrivalSlackMs as specArrivalSlackMs,
  nextAttemptDelay as specDelay,
} from '../jobs/policy.js';

/** A retry schedule: the delay before each retry (ms, before jitter) and whether `Retry-After` is honoured. */
export interface RetrySchedule {
  /** A preset's name, or `custom` for an explicit list. */
  readonly name: string;
  /** Delay before retry 1, 2, … (ms); its length is the number of retries. */
  readonly delaysMs: readonly number[];
}

/** At most this many retries in an explicit list. */
export const MAX_SCHEDULE_RETRIES = 12;
/** The delays of a schedule add up to at most this (3 days); jitter adds up to 10 % of each. */
export const MAX_SCHEDULE_TOTAL_MS = 3 * 24 * 3_600_000;
/** The shortest delay an explicit list may hold. */
export const MIN_SCHEDULE_DELAY_MS = 1_000;
/**
 * `Retry-After` (on 429 and 503, schedules other than `spec`) is honoured up to this: a longer one is cut
 * to it (or to the schedule's own delay, when that is longer). Never earlier than the schedule's delay.
 */
export const RETRY_AFTER_MAX_MS = 3_600_000;

const S = 1_000;
const M = 60 * S;
const H = 60 * M;

/** The named schedules. `spec` is the default (an installation without `retry_schedule`). */
export const RETRY_SCHEDULE_PRESETS: Readonly<Record<'spec' | 'extended' | 'long', RetrySchedule>> = {
  spec: { name: 'spec', delaysMs: [1 * S, 2 * S, 4 * S] },
  /** 7 retries over about 27 h 35 min before jitter (the horizon Svix uses). */
  extended: { name: 'extended', delaysMs: [5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H] },
  /** 9 retries over about 3 days (70 h 36 min before jitter). */
  long: { name: 'long', delaysMs: [1 * M, 5 * M, 30 * M, 1 * H, 3 * H, 6 * H, 12 * H, 24 * H, 24 * H] },
};

/** The default schedule: the spec's. */
export const SPEC_SCHEDULE = RETRY_SCHEDULE_PRESETS.spec;

export { parseDuration } from '../duration.js';

/** Formats ms as the shortest `<n><unit>` that is exact (`90s`, `5m`, `2h`, `1d`). */
export function formatDelay(ms: number): string {
  for (const unit of ['d', 'h', 'm'] as const) {
    const size = UNIT_MS[unit];
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms / S}s`;
}

/**
 * Reads a `retry_schedule` setting: a preset name (`spec`, `extended`, `long`) or an explicit list of
 * delays like `30s, 5m, 1h, 1d` (whole numbers with `s`, `m`, `h` or `d`; 1 to 12 retries, each at least
 * 1 s, adding up to at most 3 days). Absent or empty: `spec`. An error names what is wrong and how to fix it.
 *
 * @example
 * parseRetrySchedule('extended'); // { ok: true, schedule: RETRY_SCHEDULE_PRESETS.extended }
 * parseRetrySchedule('10s, 1m, 1h'); // { ok: true, schedule: { name: 'custom', delaysMs: [10000, 60000, 3600000] } }
 * parseRetrySchedule('5x'); // { ok: false, message: 'retry 1: "5x" is not a delay; write a whole number with s, m, h or d (e.g. 30s, 5m, 2h, 1d)' }
 */
export function parseRetrySchedule(
  value: unknown,
): { ok: true; schedule: RetrySchedule } | { ok: false; message: string } {
  if (value === undefined || value === null || value === '') return { ok: true, schedule: SPEC_SCHEDULE };
  const presets = Object.keys(RETRY_SCHEDULE_PRESETS).join(', ');
  const fix = `a preset (${presets}) or a list of delays like "30s, 5m, 1h"`;
  if (typeof value !== 'string') return { ok: false, message: `must be text: ${fix}` };
  const text = value.trim();
  if (Object.hasOwn(RETRY_SCHEDULE_PRESETS, text)) {
    return { ok: true, schedule: RETRY_SCHEDULE_PRESETS[text as keyof typeof RETRY_SCHEDULE_PRESETS] };
  }
  if (!/\d/.test(text)) return { ok: false, message: `"${text}" is not a preset; write ${fix}` };
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length > MAX_SCHEDULE_RETRIES) {
    return {
      ok: false,
      message: `${parts.length} retries; at most ${MAX_SCHEDULE_RETRIES} (remove ${parts.length - MAX_SCHEDULE_RETRIES})`,
    };
  }
  const delaysMs: number[] = [];
  for (const [index, part] of parts.entries()) {
    const ms = parseDuration(part);
    if (ms === undefined) {
      return {
        ok: false,
        message: `retry ${index + 1}: "${part}" is not a delay; write a whole number with s, m, h or d (e.g. 30s, 5m, 2h, 1d)`,
      };
    }
    if (ms < MIN_SCHEDULE_DELAY_MS)
      return { ok: false, message: `retry ${index + 1}: "${part}" is under 1s` };
    delaysMs.push(ms);
  }
  const total = delaysMs.reduce((sum, ms) => sum + ms, 0);
  if (total > MAX_SCHEDULE_TOTAL_MS) {
    return {
      ok: false,
      message: `the delays add up to ${formatDelay(total)}; at most 3d (72h) in all`,
    };
  }
  return { ok: true, schedule: { name: 'custom', delaysMs } };
}

/** Whether `schedule` is the spec's default (decided by `policy.ts` alone, `Retry-After` not read). */
export function isSpecSchedule(schedule: RetrySchedule): boolean {
  return schedule === SPEC_SCHEDULE || schedule.name === 'spec';
}

/**
 * The delay before retry `retry` (1-based) of `schedule`: its delay `d` plus a jitter drawn from the first
 * half of `[0, d × 10 %]`, as the spec's schedule does (the rest of the window is left for the trip). With
 * `retryAfterMs` (a 429 or 503 that said when to come back; not for `spec`), `d` becomes
 * `max(d, min(retryAfterMs, max(d, RETRY_AFTER_MAX_MS)))`: never earlier than the schedule, at most an hour
 * unless the schedule itself waits longer.
 *
 * @example
 * scheduleDelay(RETRY_SCHEDULE_PRESETS.extended, 2, () => 0); // 300000
 * scheduleDelay(RETRY_SCHEDULE_PRESETS.extended, 1, () => 0, 20_000); // 20000 (Retry-After: 20)
 */
export function scheduleDelay(
  schedule: RetrySchedule,
  retry: number,
  rng: () => number = Math.random,
  retryAfterMs?: number,
): number {
  if (isSpecSchedule(schedule)) return specDelay(retry, rng);
  const base = baseDelay(schedule, retry, retryAfterMs);
  const draw = rng();
  const unit = Number.isFinite(draw) ? Math.min(Math.max(draw, 0), 1) : 0;
  return base + Math.floor(unit * base * JITTER_RATIO * DRAWN_SHARE);
}

/** Retry `retry`'s delay before jitter, `Retry-After` applied within its bounds. */
function baseDelay(schedule: RetrySchedule, retry: number, retryAfterMs?: number): number {
  if (!Number.isInteger(retry) || retry < 1 || retry > schedule.delaysMs.length) {
    throw new RangeError(
      `scheduleDelay: retry must be an integer from 1 to ${schedule.delaysMs.length}, got ${retry}`,
    );
  }
  const scheduled = schedule.delaysMs[retry - 1]!;
  if (retryAfterMs === undefined || isSpecSchedule(schedule)) return scheduled;
  return Math.max(scheduled, Math.min(retryAfterMs, Math.max(scheduled, RETRY_AFTER_MAX_MS)));
}

/**
 * The window retry `retry` of `schedule` arrives in, counted from the end of the failed attempt:
 * `[d, d × 1.1]` (ms), `d` as {@link scheduleDelay} takes it.
 *
 * @example
 * retryWindow(RETRY_SCHEDULE_PRESETS.spec, 3); // [4000, 4400]
 */
export function retryWindow(
  schedule: RetrySchedule,
  retry: number,
  retryAfterMs?: number,
): readonly [number, number] {
  const base = isSpecSchedule(schedule) ? 1000 * 2 ** (retry - 1) : baseDelay(schedule, retry, retryAfterMs);
  return [base, base * (1 + JITTER_RATIO)];
}

/**
 * What retry `retry` leaves for the trip to the receiver after its latest due time (the second half of its
 * jitter): 50 / 100 / 200 ms for `spec`.
 *
 * @example
 * scheduleArrivalSlackMs(RETRY_SCHEDULE_PRESETS.extended, 1); // 250
 */
export function scheduleArrivalSlackMs(schedule: RetrySchedule, retry: number): number {
  if (isSpecSchedule(schedule)) return specArrivalSlackMs(Math.min(Math.max(retry, 1), MAX_RETRIES));
  const index = Math.min(Math.max(retry, 1), schedule.delaysMs.length) - 1;
  return schedule.delaysMs[index]! * JITTER_RATIO * (1 - DRAWN_SHARE);
}

/**
 * {@link decide} for any schedule: `spec` is decided by `decide` itself (unchanged); another schedule
 * retries while retries are left (`delaysMs.length`), then ends `exhausted`.
 *
 * @example
 * decideWithSchedule(RETRY_SCHEDULE_PRESETS.long, 10, 'retry'); // { state: 'exhausted' }
 */
export function decideWithSchedule(
  schedule: RetrySchedule,
  attemptNumber: number,
  classification: Classification,
  rng: () => number = Math.random,
  retryAfterMs?: number,
): Decision {
  if (isSpecSchedule(schedule)) return decide(attemptNumber, classification, rng);
  if (classification !== 'retry') return { state: classification };
  if (attemptNumber > schedule.delaysMs.length) return { state: 'exhausted' };
  const retry = Math.max(1, Math.floor(attemptNumber));
  return { retryInMs: scheduleDelay(schedule, retry, rng, retryAfterMs) };
}

/**
 * Reads a `Retry-After` header value: delta-seconds (`120`) or an HTTP date, as ms from `nowMs`; undefined
 * when absent, unreadable or in the past.
 *
 * @example
 * parseRetryAfter('120', 0); // 120000
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT')); // 60000
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (!Number.isFinite(at) || at <= nowMs) return undefined;
  return at - nowMs;
}
