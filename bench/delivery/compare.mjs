// `npm run bench:delivery -- --backend=both [--hosts=2] [--kill-one]` (or `--compare`): the raw ceiling,
// SQLite and PostgreSQL (and PostgreSQL with several hosts on one database) measured in ONE run. Bursts
// in alternating rounds (raw, then each backend in rotating order), then per phase each backend in turn:
// paced at the fixed rate (1,000 events/s), at 100 events/s, and with 10 % of attempts answered 500
// (at half the fixed rate); finally, with --kill-one, the kill -9 phase on the several-host backend.
// Printed side by side with the ratios and targets of docs/benchmarks.md ("PostgreSQL and several hosts").
// Unless `--no-bullmq`, BullMQ (bullmq.mjs: Redis with AOF `everysec` on a port of its own) runs every
// phase as one more backend, and each host's burst is printed as a ratio to BullMQ's of the same round.
import { execFileSync } from 'node:child_process';
import { startBackendWith } from './backend.mjs';
import { startBullmqWith } from './bullmq.mjs';
import { fmt, loadCells, percentile, table, writeResults } from './lib.mjs';
import { burstPhase, failingPhase, killRun, pacedPhase, rawRunner, warmUp } from './phases.mjs';
import { attemptsLine, outcomeLine, printHostLogs, printKill, printPerHost } from './report-hosts.mjs';

const median = (values) => percentile(values, 50);

/** Runs the comparison; `ctx` carries the parsed options, the counts, the receiver and the host env. */
export async function runCompare({
  options: O,
  params: P,
  receiver,
  hostEnv,
  info,
  uptime,
  hostProfileDir,
  mode,
}) {
  const specs = [
    { key: 'sqlite', kind: 'sqlite', hosts: 1 },
    { key: 'pg', kind: 'pg', hosts: 1 },
    ...(O.hosts > 1 ? [{ key: `pg${O.hosts}`, kind: 'pg', hosts: O.hosts }] : []),
  ];
  const results = {
    date: new Date().toISOString(),
    quick: O.quick,
    mode: 'compare',
    hosts: O.hosts,
    deliveryThread: mode === 'thread',
    machine: info,
    uptimeBefore: uptime,
    params: P,
    backends: {},
    rounds: [],
  };
  const backends = [];
  try {
    for (const spec of specs) {
      const backend = await startBackendWith(O, P, {
        kind: spec.kind,
        hosts: spec.hosts,
        hostEnv,
        receiverUrl: receiver.url,
        profileDir: hostProfileDir,
      });
      backends.push({ ...backend, key: spec.key });
      results.backends[spec.key] = { label: backend.label, database: backend.databaseName };
      console.log(
        `${backend.label}: pid ${backend.hosts.map((h) => h.pid).join(', ')}` +
          (backend.databaseName ? `, database ${backend.databaseName} (dropped at the end)` : ''),
      );
    }
    const bull = await startBullmqWith(O, P, receiver.url);
    if (bull) {
      backends.push({ ...bull, key: 'bullmq' });
      specs.push({ key: 'bullmq', kind: 'bullmq', hosts: 1 });
      results.backends.bullmq = { label: bull.label, redis: bull.redis };
      console.log(
        `BullMQ reference: bullmq 6 (pid ${bull.hosts[0].pid}) on ${bull.redis.binary} (port ${bull.redis.port}, appendonly yes, appendfsync everysec, save '', a temp folder removed at the end)`,
      );
    }
    receiver.configure({ secrets: backends.map((b) => b.secret), failRate: 0 });
    const raw = rawRunner(receiver, backends[0], P);
    await raw.warm(P.concurrency);
    for (const b of backends) await warmUp(receiver, b, P.warmup, P.postConcurrency);

    for (let round = 0; round < P.rounds; round++) {
      const row = { raw: await raw.measure(P.concurrency), bursts: {} };
      for (let k = 0; k < backends.length; k++) {
        const b = backends[(k + round) % backends.length];
        row.bursts[b.key] = await burstPhase(receiver, b, P.burstCount, P.postConcurrency);
      }
      results.rounds.push(row);
      console.log(
        `round ${round + 1}: raw ${fmt(row.raw.deliveriesPerSecond, 0)}/s, ` +
          backends.map((b) => `${b.label} ${fmt(row.bursts[b.key].deliveriesPerSecond, 0)}/s`).join(', '),
      );
    }
    const each = async (name, fn) => {
      for (const b of backends) {
        results.backends[b.key][name] = await fn(b);
        console.log(`${name}: ${b.label} done`);
      }
    };
    await each('pacedFixed', (b) => pacedPhase(receiver, b, P.fixedRate, P.fixedSeconds, P.concurrency));
    await each('paced100', (b) => pacedPhase(receiver, b, 100, P.lightSeconds, P.concurrency));
    receiver.configure({ secrets: backends.map((b) => b.secret), failRate: P.failRate });
    const retryRate = Math.max(10, Math.round(P.fixedRate / 2));
    await each('retries', (b) =>
      failingPhase(receiver, b, {
        rate: retryRate,
        seconds: P.retrySeconds,
        maxInFlight: P.concurrency,
        failRate: P.failRate,
        settleMs: P.settleMs,
      }),
    );
    receiver.configure({ secrets: backends.map((b) => b.secret), failRate: 0 });
    if (O.killOne)
      results.kill = await killRun(
        receiver,
        backends.find((b) => b.key === `pg${O.hosts}`),
        hostEnv,
        P,
      );
  } finally {
    for (const b of backends) {
      const stopped = await b.stop();
      results.backends[b.key].hostStops = stopped.hostStops;
      results.backends[b.key].hostLogs = stopped.hostLogs;
    }
  }
  results.uptimeAfter = execFileSync('uptime', { encoding: 'utf8' }).trim();
  printComparison(results, specs);
  writeResults(results, `compare${O.hosts > 1 ? `-${O.hosts}hosts` : ''}-${mode}`);
}

/** Per round, `a`'s burst over `b`'s (same round, so the machine's drift cancels out), and their median. */
function roundRatios(rounds, a, b) {
  const list = rounds.map(
    (r) => r.bursts[a].deliveriesPerSecond / Math.max(1e-9, r.bursts[b].deliveriesPerSecond),
  );
  return { list: list.map((x) => Math.round(x * 100) / 100), median: median(list) };
}

function printComparison(r, specs) {
  const keys = specs.map((s) => s.key);
  const B = r.backends;
  const burstOf = (key) => median(r.rounds.map((x) => x.bursts[key].deliveriesPerSecond));
  const medianRound = (key) => {
    const sorted = [...r.rounds].sort(
      (x, y) => x.bursts[key].deliveriesPerSecond - y.bursts[key].deliveriesPerSecond,
    );
    return sorted[Math.floor(sorted.length / 2)].bursts[key];
  };
  const usPerDelivery = (x, key) =>
    x.verified > 0 && x.load[key] !== undefined
      ? fmt((x.load[key] * x.load.seconds * 1e6) / x.verified, 0)
      : '-';
  const hostUs = (x) => usPerDelivery(x, 'hostProcessCores');
  const lat = (x, key) => `${fmt(x[key].p50, 1)} / ${fmt(x[key].p99, 1)}`;
  const retrySlots = (c) => c.retries.map((s) => `${s.inside}/${s.count}`).join(', ');
  const errors = (key) =>
    (B[key].hostLogs ?? []).reduce((n, log) => n + (log?.levels.error ?? 0) + (log?.levels.fatal ?? 0), 0);
  const rows = [
    [
      'burst, deliveries/s (median of rounds)',
      fmt(median(r.rounds.map((x) => x.raw.deliveriesPerSecond)), 0),
      ...keys.map((k) => fmt(burstOf(k), 0)),
    ],
    [
      'burst / raw, same round (median)',
      '1',
      ...keys.map((k) =>
        fmt(median(r.rounds.map((x) => x.bursts[k].deliveriesPerSecond / x.raw.deliveriesPerSecond)), 2),
      ),
    ],
    ...(keys.includes('bullmq')
      ? [
          [
            'burst / BullMQ, same round (median)',
            '-',
            ...keys.map((k) => fmt(roundRatios(r.rounds, k, 'bullmq').median, 2)),
          ],
        ]
      : []),
    ['host CPU µs per delivery, burst (all hosts)', '-', ...keys.map((k) => hostUs(medianRound(k)))],
    [
      'database server CPU µs per delivery, burst (PostgreSQL / Redis, ≈)',
      '-',
      ...keys.map((k) => usPerDelivery(medianRound(k), 'dbServerCores')),
    ],
    ['burst 202 p50 / p99 ms', '-', ...keys.map((k) => lat(medianRound(k), 'acceptMs'))],
    [
      `paced ${r.params.fixedRate}/s: verified / accepted`,
      '-',
      ...keys.map((k) => `${B[k].pacedFixed.verified} / ${B[k].pacedFixed.accepted}`),
    ],
    [
      `paced ${r.params.fixedRate}/s: POST → 1st attempt p50 / p99 ms`,
      '-',
      ...keys.map((k) => lat(B[k].pacedFixed, 'postToFirstAttemptMs')),
    ],
    [
      `paced ${r.params.fixedRate}/s: 202 → 1st attempt p50 / p99 ms`,
      '-',
      ...keys.map((k) => lat(B[k].pacedFixed, 'acceptToFirstAttemptMs')),
    ],
    [
      'paced 100/s: POST → 1st attempt p50 / p99 ms',
      '-',
      ...keys.map((k) => lat(B[k].paced100, 'postToFirstAttemptMs')),
    ],
    [
      `10% 500 at ${B[keys[0]].retries.rate}/s: retries 1 / 2 / 3 inside windows`,
      '-',
      ...keys.map((k) => retrySlots(B[k].retries)),
    ],
    [
      'retries inside windows (max late ms)',
      '-',
      ...keys.map(
        (k) => `${fmt(B[k].retries.retriesInsidePercent, 2)}% (${fmt(B[k].retries.maxLatenessMs, 0)})`,
      ),
    ],
    [
      'max attempts per event / events over 4',
      '-',
      ...keys.map((k) => `${B[k].retries.attemptsPerEvent.max} / ${B[k].retries.attemptsPerEvent.overCap}`),
    ],
    [
      'events that could succeed that did',
      '-',
      ...keys.map(
        (k) =>
          `${fmt(B[k].retries.events.succeededOfPossiblePercent, 2)}%${B[k].retries.settledInTime ? '' : ' (not settled)'}`,
      ),
    ],
    ['host log errors (all hosts)', '-', ...keys.map((k) => String(errors(k)))],
  ];
  console.log('');
  console.log(table(['', 'raw ceiling', ...keys.map((k) => B[k].label)], rows));
  console.log(
    `\nrounds (deliveries/s): ${r.rounds
      .map(
        (x, i) =>
          `${i + 1}: raw ${fmt(x.raw.deliveriesPerSecond, 0)}, ${keys.map((k) => `${B[k].label} ${fmt(x.bursts[k].deliveriesPerSecond, 0)}`).join(', ')}`,
      )
      .join('; ')}`,
  );

  const met = (ok) => (ok ? 'met' : 'NOT met');
  const targets = [];
  const pgSqlite = roundRatios(r.rounds, 'pg', 'sqlite');
  targets.push(
    `PostgreSQL burst / SQLite burst = ${fmt(pgSqlite.median, 2)} (rounds ${pgSqlite.list.join(', ')}); target >= 0.6: ${met(pgSqlite.median >= 0.6)}`,
  );
  if (keys.includes('bullmq')) {
    for (const k of keys.filter((key) => key !== 'bullmq')) {
      const vs = roundRatios(r.rounds, k, 'bullmq');
      targets.push(
        `${B[k].label} burst / BullMQ burst = ${fmt(vs.median, 2)} (rounds ${vs.list.join(', ')}); target >= 1: ${met(vs.median >= 1)}`,
      );
    }
  }
  const multi = keys.find((k) => k.startsWith('pg') && k !== 'pg');
  if (multi) {
    const scale = roundRatios(r.rounds, multi, 'pg');
    targets.push(
      `${B[multi].label} burst / 1 host = ${fmt(scale.median, 2)} (rounds ${scale.list.join(', ')}); target >= 1: ${met(scale.median >= 1)}`,
    );
  }
  for (const k of keys.filter((key) => key.startsWith('pg'))) {
    const x = B[k];
    const p99 = x.pacedFixed.postToFirstAttemptMs.p99;
    targets.push(
      `${x.label}: paced ${r.params.fixedRate}/s p99 POST → 1st attempt ${fmt(p99, 1)} ms, target <= 50: ${met(p99 !== null && p99 <= 50)};` +
        ` retries inside windows ${x.retries.retriesInside}/${x.retries.retriesTotal}, target 100%: ${met(x.retries.retriesTotal > 0 && x.retries.retriesInside === x.retries.retriesTotal)};` +
        ` max attempts ${x.retries.attemptsPerEvent.max}, target <= 4: ${met(x.retries.attemptsPerEvent.max <= 4)}` +
        `${x.retries.settledInTime ? '' : ' (incomplete: the phase had not settled)'};` +
        ` could succeed and did ${fmt(x.retries.events.succeededOfPossiblePercent, 2)}%, target 100%: ${met(x.retries.events.succeededOfPossiblePercent === 100)}`,
    );
  }
  if (r.kill)
    targets.push(
      `kill -9 of one of ${r.hosts} hosts: accepted events lost ${r.kill.neverArrived}, target 0: ${met(r.kill.neverArrived === 0)}`,
    );
  console.log('\ntargets (reported, not asserted):');
  for (const t of targets) console.log(`  ${t}`);

  for (const k of keys) {
    console.log(`\n${B[k].label}, 10% 500 at ${B[k].retries.rate}/s:`);
    console.log(`  ${attemptsLine(B[k].retries)}`);
    console.log(`  ${outcomeLine(B[k].retries)}`);
    const h = B[k].retries.hostRecorded;
    if (k === 'bullmq') continue; // BullMQ keeps no attempt log (done jobs are removed)
    console.log(
      `  the host's attempt log: ${h.attemptsInHostLog} attempts for the ${h.requestsAtReceiver} requests the receiver got` +
        ` (${h.deliveries} of ${h.retriedDeliveries} retried deliveries read); its retries inside windows ${h.retriesInside}/${h.retriesTotal}`,
    );
  }
  if (multi) {
    printPerHost([
      ['burst', medianRound(multi)],
      [`paced ${r.params.fixedRate}/s`, B[multi].pacedFixed],
      ['10% 500', B[multi].retries],
    ]);
  }
  printKill(r.kill);
  console.log(
    '\nload (cores busy; the machine has ' +
      r.machine.nproc +
      '): machine / hosts / load generator / receiver / PostgreSQL server processes of the database',
  );
  const loadRows = [];
  for (const k of keys) {
    for (const [name, x] of [
      ['burst', medianRound(k)],
      ['paced fixed', B[k].pacedFixed],
      ['10% 500', B[k].retries],
    ]) {
      loadRows.push([
        B[k].label,
        name,
        ...loadCells(x.load, [
          'seconds',
          'machineBusyCores',
          'hostProcessCores',
          'benchProcessCores',
          'receiverProcessCores',
          'dbServerCores',
        ]),
      ]);
    }
  }
  console.log(
    table(
      [
        'backend',
        'phase',
        'seconds',
        'machine',
        'hosts (BullMQ: its process)',
        'generator',
        'receiver',
        'PostgreSQL / Redis (≈)',
      ],
      loadRows,
    ),
  );
  console.log(`load average: before [${r.machine.loadAverage.join(', ')}]; after: ${r.uptimeAfter}`);
  if (r.machine.quietBefore?.warning) console.log(r.machine.quietBefore.warning);
  for (const k of keys) printHostLogs(B[k].label, B[k].hostLogs);
}
