// Report parts shared by the single-backend report (report.mjs) and the comparison (compare.mjs): attempts
// per delivery, CPU per host, the kill -9 phase and what the hosts' logs said.
import { MAX_ATTEMPTS } from './analyze.mjs';
import { fmt, table } from './lib.mjs';

/** "attempts per event: 1 × 2250, 2 × 230, ...; max 4; over 4: 0; same attempt number twice: 0". */
export function attemptsLine(c) {
  const a = c.attemptsPerEvent;
  if (!a) return 'attempts per event: -';
  const histogram = Object.entries(a.histogram)
    .sort((x, y) => Number(x[0]) - Number(y[0]))
    .map(([n, count]) => `${n} × ${count}`)
    .join(', ');
  return (
    `attempts per event (at the receiver, all hosts): ${histogram}; max ${a.max}` +
    ` (target <= ${MAX_ATTEMPTS}); events with more than ${MAX_ATTEMPTS}: ${a.overCap};` +
    ` an attempt number received twice for one delivery: ${a.repeatedAttemptNumbers};` +
    ` requests whose X-Platform-Delivery-Attempt is not their place in arrival order: ${c.attemptHeaderOutOfStep ?? '-'};` +
    ` requests after a 200 or a 4th attempt: ${c.unexpectedAttemptSequences ?? '-'}`
  );
}

/** One line on how the 10 %-500 phase ended: settled in time, or what was still pending. */
export function outcomeLine(c) {
  const e = c.events;
  const pending = c.settledInTime
    ? ''
    : `; NOT settled after waiting ${fmt(c.settleWaitMs / 1000, 0)} s (retries late or missing: the "lost" ones may still come)`;
  return (
    `events: ${e.accepted} accepted, ${e.succeeded} verified 200, ${e.exhausted} exhausted (4 × 500), ${e.lost} lost or pending` +
    ` → ${fmt(e.succeededOfPossiblePercent, 2)}% of those that could succeed did${pending}`
  );
}

/** Per-host cores and CPU per verified delivery in the given phases (several hosts only). */
export function printPerHost(phases) {
  const withHosts = phases.filter(([, x]) => x?.load?.hosts);
  if (withHosts.length === 0) return;
  const rows = [];
  for (const [name, x] of withHosts) {
    x.load.hosts.forEach((h, i) => {
      rows.push([
        name,
        `host ${i + 1}`,
        h ? fmt(h.processCores, 2) : 'gone',
        h ? fmt(h.mainThreadCores, 2) : '-',
        h ? fmt(h.busiestOtherThreadCores, 2) : '-',
        h && x.verified > 0 ? fmt((h.processCores * x.load.seconds * 1e6) / x.verified, 0) : '-',
      ]);
    });
  }
  console.log(
    "\nper host (cores over the phase; µs = this host's CPU over the phase / every verified delivery):",
  );
  console.log(
    table(['phase', 'host', 'process', 'main thread', 'busiest other thread', 'µs / delivery'], rows),
  );
}

/** The kill -9 phase. */
export function printKill(k) {
  if (!k) return;
  console.log(
    `\nkill -9 of host ${k.killedHost} of ${k.perHost.length} halfway through ${k.posted} events at ${k.rate}/s` +
      ` (lease ${fmt(k.leaseMs / 1000, 0)} s):`,
  );
  if (k.killError) console.log(`  the kill failed: ${k.killError}`);
  console.log(
    table(
      ['host', 'accepted (202)', 'verified 200', 'never reached the receiver'],
      k.perHost.map((h) => [h.host, h.accepted, h.verified, h.neverArrived]),
    ),
  );
  console.log(
    `  accepted ${k.accepted} (${k.postErrorCount} POSTs failed, e.g. to the killed host: not accepted, not counted);` +
      ` NEVER REACHED THE RECEIVER: ${k.neverArrived} (target 0)` +
      (k.neverArrived ? ` e.g. ${k.neverArrivedSample.join(', ')}` : '') +
      `; arrived but no 200: ${k.arrivedNotSucceeded}; delivered more than once: ${k.deliveredMoreThanOnce} (allowed: at least once)`,
  );
  console.log(
    `  events of the killed host first attempted after the kill (taken over by another host): ${k.takenOver}` +
      (k.takeoverMaxMs === null ? '' : `, the last ${fmt(k.takeoverMaxMs / 1000, 1)} s after the kill`) +
      ';' +
      ` kill → last verified delivery ${k.killToLastDeliveryMs === null ? '-' : `${fmt(k.killToLastDeliveryMs / 1000, 1)} s`};` +
      ` ${k.settledInTime ? 'all accepted events verified' : `NOT all verified after waiting ${fmt(k.waitedAfterSendingMs / 1000, 0)} s`}`,
  );
}

/** What each host's log said (warnings and errors, most frequent first). */
export function printHostLogs(label, logs) {
  for (const [i, log] of (logs ?? []).entries()) {
    if (!log) continue;
    const levels = Object.entries(log.levels)
      .map(([level, n]) => `${n} ${level}`)
      .join(', ');
    console.log(`${label} host ${i + 1} log: ${log.lines} lines${levels ? ` (${levels})` : ''}; ${log.file}`);
    for (const m of log.frequent) console.log(`  ${m.count} × ${m.message}`);
  }
}
