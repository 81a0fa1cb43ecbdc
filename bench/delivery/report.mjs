// Prints the benchmark's results as readable tables.
import { fmt, table } from './lib.mjs';

const ms = (x) => fmt(x, 1);

export function printReport(r) {
  const rows = [
    [
      `(a) raw undici, ${r.raw.connections} sockets`,
      r.raw.verified,
      fmt(r.raw.deliveriesPerSecond),
      r.raw.peakPerSecond,
      '-',
      '-',
      '-',
    ],
    [
      `(a) raw undici, ${r.raw8.connections} sockets`,
      r.raw8.verified,
      fmt(r.raw8.deliveriesPerSecond),
      r.raw8.peakPerSecond,
      '-',
      '-',
      '-',
    ],
    ...[
      ['(b) host burst', r.burst],
      [`(b) host paced ${r.paced.rate}/s (½ peak)`, r.paced],
      [`(b') host paced ${r.pacedLight.rate}/s (¼ peak)`, r.pacedLight],
      [`(c) paced ${r.retries.rate}/s, ${r.retries.failRate * 100}% 500`, r.retries],
      [`(c) paced ${r.retriesLight.rate}/s, ${r.retriesLight.failRate * 100}% 500`, r.retriesLight],
    ].map(([name, x]) => [
      name,
      x.verified,
      fmt(x.deliveriesPerSecond),
      x.peakPerSecond,
      `${ms(x.acceptMs.p50)} / ${ms(x.acceptMs.p99)}`,
      ms(x.acceptToFirstAttemptMs.p50),
      ms(x.acceptToFirstAttemptMs.p99),
    ]),
  ];
  console.log('');
  console.log(
    table(
      ['phase', 'verified', 'deliveries/s', 'peak/s', '202 p50/p99 ms', '202→1st p50 ms', '202→1st p99 ms'],
      rows,
    ),
  );
  if (r.deliveryThread !== undefined)
    console.log(
      `\ndelivery engine: ${r.deliveryThread ? 'worker thread' : 'main thread'} (host ELU below is the main thread's)`,
    );
  console.log(`\n(b)/(a) = ${r.ratio.toFixed(2)}   (burst deliveries/s over raw deliveries/s, 64 sockets)`);

  for (const c of [r.retries, r.retriesLight]) {
    console.log(
      `\n(c) ${c.rate}/s with ${c.failRate * 100}% 500: retries measured at the receiver (failed attempt's answer → next arrival):`,
    );
    console.log(
      table(
        ['retry', 'window', 'count', 'inside', 'early', 'late', 'min gap ms', 'max gap ms', 'max late ms'],
        c.retries.map((x) => [
          x.retry,
          x.window,
          x.count,
          x.inside,
          x.early,
          x.late,
          ms(x.minGapMs),
          ms(x.maxGapMs),
          ms(x.maxLatenessMs),
        ]),
      ),
    );
    console.log(
      `inside windows: ${c.retriesInside}/${c.retriesTotal} (${fmt(c.retriesInsidePercent, 2)}%), max lateness ${ms(c.maxLatenessMs)} ms`,
    );
    const h = c.hostRecorded;
    console.log(
      `as the host recorded them (its attempt log: end of failed attempt → start of next): ` +
        `${h.retriesInside}/${h.retriesTotal} inside, max lateness ${ms(h.maxLatenessMs)} ms; host attempt start → ` +
        `receiver arrival p50/p99/max ${ms(h.startToArrivalMs.p50)}/${ms(h.startToArrivalMs.p99)}/${ms(h.startToArrivalMs.max)} ms`,
    );
    const e = c.events;
    console.log(
      `events: ${e.accepted} accepted, ${e.succeeded} verified 200, ${e.exhausted} exhausted (4 × 500), ${e.lost} lost` +
        ` → ${fmt(e.succeededOfPossiblePercent, 2)}% of those that could succeed did`,
    );
  }

  console.log('\nload (cores busy; the machine has ' + r.machine.nproc + '):');
  console.log(
    table(
      ['phase', 'seconds', 'machine', 'bench+host proc', 'receiver proc', 'others (≈)', 'host loop ELU'],
      [
        ['(a) raw 64', r.raw.load],
        ['(a) raw 8', r.raw8.load],
        ['(b) burst', r.burst.load],
        ['(b) paced ½', r.paced.load],
        ["(b') paced ¼", r.pacedLight.load],
        ['(c) 10% 500 ½', r.retries.load],
        ['(c) 10% 500 ¼', r.retriesLight.load],
      ].map(([name, l]) => [
        name,
        fmt(l.seconds, 2),
        fmt(l.machineBusyCores, 2),
        fmt(l.benchProcessCores, 2),
        fmt(l.receiverProcessCores, 2),
        fmt(Math.max(0, l.machineBusyCores - l.benchProcessCores - l.receiverProcessCores), 2),
        fmt(l.eventLoopUtilization, 2),
      ]),
    ),
  );
  // CPU time of this process (host + load generator) per verified delivery: less sensitive to what
  // other processes on the machine do than deliveries/s.
  const cpuPer = (x) =>
    x.verified > 0 ? ms((x.load.benchProcessCores * x.load.seconds * 1000) / x.verified) : '-';
  console.log(
    `bench+host CPU per verified delivery: burst ${cpuPer(r.burst)} ms, paced ½ ${cpuPer(r.paced)} ms, paced ¼ ${cpuPer(r.pacedLight)} ms`,
  );
  const warn = [];
  for (const [name, x] of [
    ['burst', r.burst],
    ['paced', r.paced],
    ['paced ¼', r.pacedLight],
    ['retries', r.retries],
    ['retries ¼', r.retriesLight],
  ]) {
    if (x.postErrorCount)
      warn.push(`${name}: ${x.postErrorCount} POST /v1/events failed: ${x.postErrors[0]}`);
    if (x.rejectedByVerify) warn.push(`${name}: ${x.rejectedByVerify} requests failed verification`);
    if (x.duplicates200) warn.push(`${name}: ${x.duplicates200} events verified more than once`);
  }
  if (r.paced.senderMaxLagMs > 50) warn.push(`paced sender fell ${ms(r.paced.senderMaxLagMs)} ms behind`);
  console.log(
    `\nbody ${r.burst.bodyBytes} bytes; paced sender max lag ${ms(r.paced.senderMaxLagMs)} ms (¼: ${ms(r.pacedLight.senderMaxLagMs)} ms);` +
      ` 202 before 1st arrival? negatives (arrival before the client saw the 202): burst ${r.burst.acceptToFirstAttemptMs.negative}, paced ${r.paced.acceptToFirstAttemptMs.negative}`,
  );
  console.log(`load average: before [${r.machine.loadAverage.join(', ')}]; after: ${r.uptimeAfter}`);
  for (const w of warn) console.log(`WARNING ${w}`);
  console.log(
    `\ntargets (reported, not asserted): (b)/(a) >= 0.5: ${r.ratio >= 0.5 ? 'met' : 'NOT met'};` +
      ` paced p99 202→1st < 50 ms: ${r.paced.acceptToFirstAttemptMs.p99 < 50 ? 'met' : 'NOT met'};` +
      ` 100% retries inside windows (½ peak): ${r.retries.retriesInsidePercent === 100 ? 'met' : 'NOT met'}`,
  );
}
