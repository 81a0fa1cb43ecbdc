// Turns the receiver's records and the poster's results into the figures the benchmark reports.
import { byEvent, peakPerSecond, percentile, R } from './lib.mjs';

const round = (x, digits = 1) =>
  x === null || x === undefined ? null : Math.round(x * 10 ** digits) / 10 ** digits;

/** Retry windows of docs/contracts.md "Retry policy" (ms before retry 1, 2, 3). */
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
  const fromPost = [];
  let missing = 0;
  for (const a of accepted) {
    const e = events.get(a.eventId);
    if (!e || e.firstArrival === Number.POSITIVE_INFINITY) {
      missing++;
      continue;
    }
    firstAttempt.push(e.firstArrival - a.acceptedAt);
    fromPost.push(e.firstArrival - a.sentAt);
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
    // From the moment the client sent the POST (its 202 time included) to attempt 1's arrival.
    postToFirstAttemptMs: {
      p50: round(percentile(fromPost, 50), 2),
      p99: round(percentile(fromPost, 99), 2),
      max: round(percentile(fromPost, 100), 2),
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
 * (c) Retry spacing measured at the receiver: for consecutive requests of one delivery id (in arrival
 * order), the gap from the failed one's answer to the next one's arrival, against the window of that retry.
 * Outcomes per accepted event: succeeded (a verified 200), exhausted (4 attempts, all 500), lost (else).
 */
export function analyzeRetries(run, records) {
  const byDelivery = new Map();
  for (const r of records) {
    const list = byDelivery.get(r[R.deliveryId]) ?? [];
    list.push(r);
    byDelivery.set(r[R.deliveryId], list);
  }
  // In arrival order: the n-th request after the first is retry n, whatever attempt number it carries (a
  // host that lost track of an attempt sends the same number again); such mismatches are counted apart.
  let unexpected = 0;
  let headerOutOfStep = 0;
  let afterSuccess = 0;
  const retries = emptyRetrySlots();
  for (const list of byDelivery.values()) {
    list.sort((a, b) => a[R.arrivedAt] - b[R.arrivedAt]);
    list.forEach((r, i) => {
      if (r[R.attempt] !== i + 1) headerOutOfStep++;
    });
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1];
      const cur = list[i];
      if (prev[R.status] !== 500) {
        afterSuccess += prev[R.status] === 200 ? 1 : 0;
        unexpected++;
        continue;
      }
      const slot = retries[i - 1];
      if (!slot) {
        unexpected++;
        continue;
      }
      countGap(slot, cur[R.arrivedAt] - prev[R.answeredAt]);
    }
  }
  const events = byEvent(records);
  const accepted = run.results.filter((r) => !r.error);
  const attempts = attemptCounts(records, accepted, events);
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
    attemptHeaderOutOfStep: headerOutOfStep,
    requestsAfterA200: afterSuccess,
    attemptsPerEvent: attempts,
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

/**
 * Attempts per accepted event as the receiver saw them (all hosts together): how many events had 1, 2,
 * ... attempts, the most any had, how many had more than MAX_ATTEMPTS, and attempt numbers that arrived
 * twice for one delivery (the same attempt sent again, e.g. after a lease ran out).
 */
function attemptCounts(records, accepted, events) {
  const histogram = {};
  let max = 0;
  let overCap = 0;
  for (const a of accepted) {
    const n = events.get(a.eventId)?.attempts ?? 0;
    histogram[n] = (histogram[n] ?? 0) + 1;
    max = Math.max(max, n);
    if (n > MAX_ATTEMPTS) overCap++;
  }
  const seen = new Set();
  let repeatedAttemptNumbers = 0;
  let maxAttemptHeader = 0;
  for (const r of records) {
    const key = `${r[R.deliveryId]}#${r[R.attempt]}`;
    if (seen.has(key)) repeatedAttemptNumbers++;
    seen.add(key);
    maxAttemptHeader = Math.max(maxAttemptHeader, r[R.attempt]);
  }
  return { histogram, max, overCap, repeatedAttemptNumbers, maxAttemptHeader };
}

/** Requests the killed host had already sent may arrive this long after the kill (ms). */
const TAKEOVER_MARGIN_MS = 100;

/**
 * The kill -9 phase: of the events the hosts accepted (202), how many never reached the receiver (the
 * target is 0), how many were delivered more than once (allowed: at-least-once), per host that accepted
 * them, and how many of the killed host's events first reached it after the kill (another host took them over).
 */
export function analyzeKill(run, records, killedAt, killedHostIndex) {
  const events = byEvent(records);
  const acceptedList = run.results.filter((r) => !r.error);
  const perHost = new Map();
  const neverArrived = [];
  const notSucceeded = [];
  let duplicates = 0;
  // Events the killed host accepted that first reached the receiver after the kill (beyond requests it
  // had already sent): another host delivered them, i.e. took them over (after their lease, today).
  let takenOver = 0;
  let takeoverMaxMs = null;
  let lastOk = null;
  const firstAny = new Map();
  for (const r of records) {
    const id = r[R.eventId];
    firstAny.set(id, Math.min(firstAny.get(id) ?? Number.POSITIVE_INFINITY, r[R.arrivedAt]));
  }
  for (const a of acceptedList) {
    const h = perHost.get(a.host) ?? { host: a.host + 1, accepted: 0, neverArrived: 0, verified: 0 };
    perHost.set(a.host, h);
    h.accepted++;
    const e = events.get(a.eventId);
    if (!e) {
      h.neverArrived++;
      neverArrived.push(a.eventId);
      continue;
    }
    if (e.oks > 0) h.verified++;
    else notSucceeded.push(a.eventId);
    if (e.oks > 1) duplicates++;
    if (e.okAt !== null) lastOk = Math.max(lastOk ?? 0, e.okAt);
    const sinceKill = killedAt === null ? null : firstAny.get(a.eventId) - killedAt;
    if (a.host === killedHostIndex && sinceKill !== null && sinceKill > TAKEOVER_MARGIN_MS) {
      takenOver++;
      takeoverMaxMs = Math.max(takeoverMaxMs ?? 0, sinceKill);
    }
  }
  return {
    posted: run.results.length,
    accepted: acceptedList.length,
    postErrorCount: run.results.length - acceptedList.length,
    postErrors: run.results
      .filter((r) => r.error)
      .slice(0, 3)
      .map((r) => r.error),
    acceptedByKilledHost: perHost.get(killedHostIndex)?.accepted ?? 0,
    neverArrived: neverArrived.length,
    neverArrivedSample: neverArrived.slice(0, 5),
    arrivedNotSucceeded: notSucceeded.length,
    deliveredMoreThanOnce: duplicates,
    takenOver,
    takeoverMaxMs: takeoverMaxMs === null ? null : round(takeoverMaxMs, 0),
    killToLastDeliveryMs: killedAt !== null && lastOk !== null ? round(lastOk - killedAt, 0) : null,
    perHost: [...perHost.values()].sort((x, y) => x.host - y.host),
  };
}
