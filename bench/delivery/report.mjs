// Prints the benchmark's results as readable tables.
import { fmt, loadCells, othersCell, table } from './lib.mjs';
import { attemptsLine, outcomeLine, printHostLogs, printKill, printPerHost } from './report-hosts.mjs';

const ms = (x) => fmt(x, 1);

export function printReport(r) {
  const rows = [
    ...[r.raw, r.raw8].map((raw) => [
      `(a) raw undici, ${raw.connections} sockets`,
      raw.verified,
      fmt(raw.deliveriesPerSecond),
      raw.peakPerSecond,
      ...Array(4).fill('-'),
    ]),
    ...[
      ['(b) host burst', r.burst],
      [`(b) host paced ${r.paced.rate}/s (½ peak)`, r.paced],
      [`(b') host paced ${r.pacedLight.rate}/s (¼ peak)`, r.pacedLight],
      ...(r.pacedFixed ? [[`(b) host paced ${r.pacedFixed.rate}/s (fixed)`, r.pacedFixed]] : []),
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
      ms(x.postToFirstAttemptMs?.p99),
    ]),
  ];
  console.log('');
  console.log(
    table(
      [
        'phase',
        'verified',
        'deliveries/s',
        'peak/s',
        '202 p50/p99 ms',
        '202→1st p50 ms',
        '202→1st p99 ms',
        'POST→1st p99 ms',
      ],
      rows,
    ),
  );
  const own = r.hostMode === 'process';
  const storage =
    r.backend === 'pg' ? `PostgreSQL, ${r.hosts} host${r.hosts > 1 ? 's on one database' : ''}` : 'SQLite';
  console.log(
    `\nstorage: ${storage}; host: ${r.hostCommand ? `own process (${r.hostCommand})` : 'in the benchmark process (startHost)'}` +
      (r.deliveryThread === undefined
        ? ''
        : `; delivery engine: ${r.deliveryThread ? 'worker thread' : 'main thread'}`) +
      (r.sqliteSync === undefined || r.backend === 'pg'
        ? ''
        : `; SQLite commits: synchronous=${r.sqliteSync}`) +
      (r.eventIds === undefined ? '' : `; event ids: ${r.eventIds}`),
  );
  console.log(`\n(b)/(a) = ${r.ratio.toFixed(2)}   (burst deliveries/s over raw deliveries/s, 64 sockets)`);
  if (r.relay) {
    const x = r.relay;
    console.log(
      `  reference, the stateless relay (HTTP in, sign, HTTP out; no storage; two threads as the host): ${fmt(x.burst.deliveriesPerSecond)}/s, ` +
        `${x.ratio.toFixed(2)} of a raw round of ${fmt(x.rawPerSecond)}/s measured just before; host process ` +
        `${fmt(x.burst.load.hostProcessCores)} cores`,
    );
  }
  if (r.rounds?.length > 1) {
    const list = r.rounds.map(
      (x) => `${x.ratio.toFixed(2)} (${fmt(x.burstPerSecond)} / ${fmt(x.rawPerSecond)})`,
    );
    console.log(`  rounds, raw and burst alternating: ${list.join(', ')}; the tables show the median round`);
  }

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
        `receiver arrival p50/p99/max ${ms(h.startToArrivalMs.p50)}/${ms(h.startToArrivalMs.p99)}/${ms(h.startToArrivalMs.max)} ms; ` +
        `${h.deliveries} of ${h.retriedDeliveries} retried deliveries read, ${h.attemptsInHostLog} attempts in the host's log for ${h.requestsAtReceiver} requests at the receiver`,
    );
    console.log(attemptsLine(c));
    console.log(outcomeLine(c));
  }
  printKill(r.kill);

  console.log(`\nload (cores busy; the machine has ${r.machine.nproc}):`);
  const loadRows = [
    ['(a) raw 64', r.raw.load],
    ['(a) raw 8', r.raw8.load],
    ['(b) burst', r.burst.load],
    ['(b) paced ½', r.paced.load],
    ["(b') paced ¼", r.pacedLight.load],
    ...(r.pacedFixed ? [[`(b) paced ${r.pacedFixed.rate}/s`, r.pacedFixed.load]] : []),
    ['(c) 10% 500 ½', r.retries.load],
    ['(c) 10% 500 ¼', r.retriesLight.load],
  ];
  if (own) {
    // Host CPU from /proc/<pid>/stat; its main thread's CPU stands in for its event-loop use (the ELU
    // column is the benchmark process's own loop, i.e. the load generator's).
    console.log(
      table(
        [
          'phase',
          'seconds',
          'machine',
          'host proc',
          'host main thr',
          'bench proc',
          'receiver',
          'others (≈)',
          'bench ELU',
        ],
        loadRows.map(([name, l]) => [
          name,
          ...loadCells(l, [
            'seconds',
            'machineBusyCores',
            'hostProcessCores',
            'hostMainThreadCores',
            'benchProcessCores',
            'receiverProcessCores',
          ]),
          othersCell(l, ['hostProcessCores', 'benchProcessCores', 'receiverProcessCores']),
          ...loadCells(l, ['eventLoopUtilization']),
        ]),
      ),
    );
  } else {
    console.log(
      table(
        ['phase', 'seconds', 'machine', 'bench+host proc', 'receiver proc', 'others (≈)', 'host loop ELU'],
        loadRows.map(([name, l]) => [
          name,
          ...loadCells(l, ['seconds', 'machineBusyCores', 'benchProcessCores', 'receiverProcessCores']),
          othersCell(l, ['benchProcessCores', 'receiverProcessCores']),
          ...loadCells(l, ['eventLoopUtilization']),
        ]),
      ),
    );
  }
  // CPU time per verified delivery: less sensitive to what other processes on the machine do than
  // deliveries/s. In process mode the host's alone; in-process, host + load generator together.
  const cpuPer = (x, key) =>
    x.verified > 0 && x.load[key] !== undefined
      ? ms((x.load[key] * x.load.seconds * 1000) / x.verified)
      : '-';
  const perPhase = (key) =>
    `burst ${cpuPer(r.burst, key)} ms, paced ½ ${cpuPer(r.paced, key)} ms, paced ¼ ${cpuPer(r.pacedLight, key)} ms`;
  if (own) {
    console.log(`host process CPU per verified delivery: ${perPhase('hostProcessCores')}`);
    console.log(`  of which its main thread: ${perPhase('hostMainThreadCores')}`);
    console.log(
      `  its busiest other thread (the delivery thread if on), cores: burst ${fmt(r.burst.load.hostBusiestOtherThreadCores, 2)}, paced ½ ${fmt(r.paced.load.hostBusiestOtherThreadCores, 2)}`,
    );
    const threads = (load) => (load.hostOtherThreadsCores ?? []).map((cores) => fmt(cores, 2)).join(' + ');
    console.log(`  its other threads, busiest first, cores in the burst: ${threads(r.burst.load)}`);
    console.log(`bench process (load generator) CPU per verified delivery: ${perPhase('benchProcessCores')}`);
  } else {
    console.log(`bench+host CPU per verified delivery: ${perPhase('benchProcessCores')}`);
  }
  if (r.burst.load.dbServerCores !== undefined) {
    console.log(
      `PostgreSQL server processes of the benchmark's database (≈; not the shared WAL writer / checkpointer), CPU per verified delivery: ${perPhase('dbServerCores')}; cores in the burst ${fmt(r.burst.load.dbServerCores, 2)}`,
    );
  }
  if (own) printCpuBudget(r);
  printPerHost([
    ['burst', r.burst],
    ['paced ½', r.paced],
    ...(r.pacedFixed ? [[`paced ${r.pacedFixed.rate}/s`, r.pacedFixed]] : []),
    ['10% 500 ½', r.retries],
  ]);
  const warn = [];
  for (const [name, x] of [
    ['burst', r.burst],
    ['paced', r.paced],
    ['paced ¼', r.pacedLight],
    ['retries', r.retries],
    ['retries ¼', r.retriesLight],
    ...(r.pacedFixed ? [['paced fixed', r.pacedFixed]] : []),
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
  if (r.hostStop)
    console.log(`host stop: exit ${r.hostStop.code ?? r.hostStop.signal} in ${r.hostStop.stopMs} ms`);
  console.log(`load average: before [${r.machine.loadAverage.join(', ')}]; after: ${r.uptimeAfter}`);
  if (r.machine.quietBefore?.warning) console.log(r.machine.quietBefore.warning);
  printHostLogs(storage, r.hostLogs);
  for (const w of warn) console.log(`WARNING ${w}`);
  console.log(
    `\ntargets (reported, not asserted): (b)/(a) >= 0.5: ${r.ratio >= 0.5 ? 'met' : 'NOT met'};` +
      ` paced p99 202→1st < 50 ms: ${r.paced.acceptToFirstAttemptMs.p99 < 50 ? 'met' : 'NOT met'};` +
      ` 100% retries inside windows (½ peak): ${r.retries.retriesInsidePercent === 100 ? 'met' : 'NOT met'}` +
      (r.pacedFixed
        ? `; paced ${r.pacedFixed.rate}/s p99 POST→1st <= 50 ms: ${r.pacedFixed.postToFirstAttemptMs.p99 <= 50 ? 'met' : 'NOT met'}`
        : '') +
      `; never more than 4 attempts: ${Math.max(r.retries.attemptsPerEvent.max, r.retriesLight.attemptsPerEvent.max) <= 4 ? 'met' : 'NOT met'}` +
      (r.retries.settledInTime && r.retriesLight.settledInTime
        ? ''
        : ' (incomplete: a 10% 500 phase had not settled)') +
      (r.kill ? `; kill -9, accepted events lost = 0: ${r.kill.neverArrived === 0 ? 'met' : 'NOT met'}` : ''),
  );
}

/** µs of CPU per verified delivery of each process in a phase (process mode: the host is its own process). */
function perDelivery(x) {
  const us = (cores) => (cores * x.load.seconds * 1e6) / Math.max(1, x.verified);
  return {
    generator: us(x.load.benchProcessCores),
    receiver: us(x.load.receiverProcessCores),
    host: us(x.load.hostProcessCores ?? 0),
  };
}

/**
 * The CPU work of one delivery, per process, in (a), (b) and the relay, and what it implies on this
 * machine: every process shares its cores, so when both phases keep the machine equally busy, (b)/(a) is
 * (a)'s work per delivery over (b)'s. The host's budget for (b)/(a) = 0.5 follows: 2 × (a) − the load
 * generator's and the receiver's share of (b).
 */
function printCpuBudget(r) {
  const a = perDelivery(r.raw);
  const b = perDelivery(r.burst);
  const aAll = a.generator + a.receiver;
  const bAll = b.generator + b.receiver + b.host;
  const us = (x) => fmt(x, 0);
  const rows = [
    ['(a) raw 64', us(a.generator), us(a.receiver), '-', us(aAll), '-'],
    ['(b) burst', us(b.generator), us(b.receiver), us(b.host), us(bAll), (aAll / bAll).toFixed(2)],
  ];
  if (r.relay?.raw) {
    const ra = perDelivery(r.relay.raw);
    const rb = perDelivery(r.relay.burst);
    const raAll = ra.generator + ra.receiver;
    const rbAll = rb.generator + rb.receiver + rb.host;
    rows.push(['(a) raw, before the relay', us(ra.generator), us(ra.receiver), '-', us(raAll), '-']);
    rows.push([
      '(r) relay burst',
      us(rb.generator),
      us(rb.receiver),
      us(rb.host),
      us(rbAll),
      (raAll / rbAll).toFixed(2),
    ]);
  }
  console.log(
    "\nCPU per verified delivery, µs (each process's CPU over the phase / deliveries; median round):",
  );
  console.log(
    table(['phase', 'load generator', 'receiver', 'host / relay', 'all', 'work ratio (a)/(b)'], rows),
  );
  const budget = 2 * aAll - b.generator - b.receiver;
  console.log(
    `(b)/(a) >= 0.5 on these ${r.machine.nproc} shared cores needs the host at <= ${us(budget)} µs per delivery ` +
      `(2 × (a) − load generator − receiver of (b)); it spent ${us(b.host)}` +
      (r.relay?.raw ? `; the stateless relay, no storage, ${us(perDelivery(r.relay.burst).host)}` : ''),
  );
}
