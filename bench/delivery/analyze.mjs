// Turns the receiver's records and the poster's results into the figures the benchmark reports.
import { byEvent, peakPerSecond, percentile, R } from './lib.mjs';

const round = (x, digits = 1) =>
  x === null || x === undefined ? null : Math.round(x * 10 ** digits) / 10 ** digits;

/** Retry windows of PRODUCT.md (ms before retry 1, 2, 3). */
export const RETRY_WINDOWS = [
  [1000, 1100],
  [2000, 2200],
  [4000, 4400],
];
export const MAX_ATTEMPTS = 4;

function throughput(count, start, okTimes) {
  if (okTimes.length === 0) return { deliveriesPerSecond: 0, seconds: null, peakPerSecond: 0 };
  const end = Math.max(...okTimes);
  const seconds = (end - start) / 1000;
  return {
    deliveriesPerSecond: round(count / seconds),
    seconds: round(seconds, 3),
    peakPerSecond: peakPerSecond(okTimes),
  };
}

/** (a) The raw ceiling: verified deliveries per second, first send to last verified answer. */
export function analyzeRaw(run, records) {
  const events = byEvent(records);
  const okTimes = [...events.values()].filter((e) => e.okAt !== null).map((e) => e.okAt);
  return {
    sent: run.eventIds.length,
    verified: okTimes.length,
    clientErrors: run.errors,
    rejectedByVerify: records.filter((r) => r[R.status] === 401).length,
    ...throughput(okTimes.length, run.start, okTimes),
  };
}

/**
 * (b) and (c) through the host: deliveries per second from the first POST /v1/events to the last
 * verified 200, and the latency from each event's 202 to its first attempt's arrival.
 */
export function analyzeHost(run, records) {
  const events = byEvent(records);
  const accepted = run.results.filter((r) => !r.error);
  const okTimes = [];
  const firstAttempt = [];
  let missing = 0;
  for (const a of accepted) {
    const e = events.get(a.eventId);
    if (!e || e.firstArrival === Number.POSITIVE_INFINITY) {
      missing++;
      continue;
    }
    firstAttempt.push(e.firstArrival - a.acceptedAt);
    if (e.okAt !== null) okTimes.push(e.okAt);
  }
  const acceptMs = accepted.map((a) => a.acceptedAt - a.sentAt);
  const lastAccepted = Math.max(...accepted.map((a) => a.acceptedAt));
  return {
    posted: run.results.length,
    accepted: accepted.length,
    postErrors: run.results
      .filter((r) => r.error)
      .slice(0, 3)
      .map((r) => r.error),
    postErrorCount: run.results.length - accepted.length,
    acceptsPerSecond: round(accepted.length / ((lastAccepted - run.start) / 1000)),
    acceptMs: { p50: round(percentile(acceptMs, 50), 2), p99: round(percentile(acceptMs, 99), 2) },
    verified: okTimes.length,
    neverArrived: missing,
    duplicates200: [...events.values()].filter((e) => e.oks > 1).length,
    rejectedByVerify: records.filter((r) => r[R.status] === 401).length,
    bodyBytes: percentile(
      records.map((r) => r[R.bytes]),
      50,
    ),
    ...throughput(okTimes.length, run.start, okTimes),
    acceptToFirstAttemptMs: {
      p50: round(percentile(firstAttempt, 50), 2),
      p90: round(percentile(firstAttempt, 90), 2),
      p99: round(percentile(firstAttempt, 99), 2),
      max: round(percentile(firstAttempt, 100), 2),
      negative: firstAttempt.filter((x) => x < 0).length,
    },
    ...(run.maxLagMs === undefined
      ? {}
      : { senderMaxLagMs: round(run.maxLagMs), sendSeconds: round(run.sendSeconds, 2) }),
  };
}

function emptyRetrySlots() {
  return RETRY_WINDOWS.map(([lo, hi], i) => ({
    retry: i + 1,
    window: `${lo}-${hi} ms`,
    lo,
    hi,
    count: 0,
    inside: 0,
    early: 0,
    late: 0,
    minGapMs: null,
    maxGapMs: null,
    maxLatenessMs: 0,
  }));
}

function countGap(slot, gap) {
  slot.count++;
  slot.minGapMs = round(slot.minGapMs === null ? gap : Math.min(slot.minGapMs, gap), 2);
  slot.maxGapMs = round(slot.maxGapMs === null ? gap : Math.max(slot.maxGapMs, gap), 2);
  if (gap < slot.lo) slot.early++;
  else if (gap > slot.hi) {
    slot.late++;
    slot.maxLatenessMs = round(Math.max(slot.maxLatenessMs, gap - slot.hi), 2);
  } else slot.inside++;
}

const summarize = (retries) => {
  const total = retries.reduce((s, r) => s + r.count, 0);
  const inside = retries.reduce((s, r) => s + r.inside, 0);
  return {
    retries,
    retriesTotal: total,
    retriesInside: inside,
    retriesInsidePercent: total ? round((inside / total) * 100, 2) : null,
    maxLatenessMs: Math.max(0, ...retries.map((r) => r.maxLatenessMs)),
  };
};

/**
 * The same spacing as the HOST recorded it (attempt log of `GET .../deliveries/{id}`: start of attempt n
 * minus start + duration of attempt n-1, 1 ms resolution): tells scheduling lateness inside the host
 * apart from time spent between the host and the receiver.
 */
export function analyzeHostGaps(deliveries, records) {
  const retries = emptyRetrySlots();
  const arrival = new Map(records.map((r) => [`${r[R.deliveryId]}#${r[R.attempt]}`, r[R.arrivedAt]]));
  const sendLag = [];
  for (const d of deliveries) {
    const attempts = d.attempts.map((a) => ({ ...a, start: Date.parse(a.startedAt) }));
    attempts.forEach((a, i) => {
      const at = arrival.get(`${d.id}#${i + 1}`);
      if (at !== undefined) sendLag.push(at - a.start);
    });
    for (let i = 1; i < attempts.length; i++) {
      const slot = retries[i - 1];
      if (slot) countGap(slot, attempts[i].start - (attempts[i - 1].start + attempts[i - 1].durationMs));
    }
  }
  return {
    deliveries: deliveries.length,
    ...summarize(retries),
    // Host's recorded attempt start → arrival at the receiver (sign, socket pool wait, event-loop lag).
    startToArrivalMs: {
      p50: round(percentile(sendLag, 50), 1),
      p99: round(percentile(sendLag, 99), 1),
      max: round(percentile(sendLag, 100), 1),
    },
  };
}

/**
 * (c) Retry spacing measured at the receiver: for consecutive attempts of one delivery id, the gap from
 * the failed attempt's answer to the next attempt's arrival, against the window of that retry.
 * Outcomes per accepted event: succeeded (a verified 200), exhausted (4 attempts, all 500), lost (else).
 */
export function analyzeRetries(run, records) {
  const byDelivery = new Map();
  for (const r of records) {
    const list = byDelivery.get(r[R.deliveryId]) ?? [];
    list.push(r);
    byDelivery.set(r[R.deliveryId], list);
  }
  let unexpected = 0;
  const retries = emptyRetrySlots();
  for (const list of byDelivery.values()) {
    list.sort((a, b) => a[R.attempt] - b[R.attempt]);
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1];
      const cur = list[i];
      if (cur[R.attempt] !== prev[R.attempt] + 1 || prev[R.status] !== 500) {
        unexpected++;
        continue;
      }
      const slot = retries[prev[R.attempt] - 1];
      if (!slot) {
        unexpected++;
        continue;
      }
      countGap(slot, cur[R.arrivedAt] - prev[R.answeredAt]);
    }
  }
  const events = byEvent(records);
  const accepted = run.results.filter((r) => !r.error);
  let succeeded = 0;
  let exhausted = 0;
  const lost = [];
  for (const a of accepted) {
    const e = events.get(a.eventId);
    if (e && e.oks > 0) succeeded++;
    else if (e && e.attempts >= MAX_ATTEMPTS) exhausted++;
    else lost.push(a.eventId);
  }
  return {
    attempts: records.length,
    failedAttempts: records.filter((r) => r[R.status] === 500).length,
    ...summarize(retries),
    unexpectedAttemptSequences: unexpected,
    events: {
      accepted: accepted.length,
      succeeded,
      exhausted,
      lost: lost.length,
      lostSample: lost.slice(0, 5),
      succeededOfPossiblePercent: round((succeeded / Math.max(1, accepted.length - exhausted)) * 100, 2),
    },
  };
}
