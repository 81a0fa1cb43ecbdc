// `bench:scale-out --paced=R`: 1, 2, 4 ... hosts on one database, each sent R events a second (the run
// posts R x hosts a second, round-robin over the hosts), instead of a burst. A burst measures capacity, and
// what it costs per delivery then depends on how far behind each host falls (a host that is behind claims
// many jobs at once, one far behind claims fuller batches still): at 4 hosts on 2 cores that depends on the
// machine more than on the hosts. At the same rate per host every host does the same work, so what one
// delivery costs (statements, claims, claims that come back empty, wake-ups, CPU) should not depend on how
// many hosts share the queue; what grows with them is what the hosts cost each other (docs/benchmarks.md,
// "Several hosts at the same rate per host").
import { COSTS, countersOf, perDelivery, printCosts } from './host-counters.mjs';
import { procCpuSeconds } from './host-process.mjs';
import { fmt, percentile, table } from './lib.mjs';
import { pacedPhase } from './phases.mjs';

/**
 * One paced phase on `backend` (its hosts, poster and database, from `startBackend`): `perHostRate` events a
 * second per host for `seconds`; per delivery, what the hosts' counters and wake-ups say, and their CPU.
 *
 * @example
 * const row = await pacedRun(receiver, backend, { perHostRate: 100, seconds: 10 });
 * row.perDelivery.emptyClaims; // claims that came back empty, per delivery, all hosts together
 */
export async function pacedRun(receiver, backend, { perHostRate, seconds }) {
  const { hosts } = backend;
  const before = await Promise.all(hosts.map((h) => countersOf(h)));
  const cpuBefore = hosts.map((h) => procCpuSeconds(h.pid));
  const throttledBefore = hosts.map((h) => h.budget?.throttledSeconds() ?? 0);
  const phase = await pacedPhase(receiver, backend, perHostRate * hosts.length, seconds, 64 * hosts.length);
  const cpuAfter = hosts.map((h) => procCpuSeconds(h.pid));
  const after = await Promise.all(hosts.map((h) => countersOf(h)));
  const cpuSeconds = cpuAfter.reduce((sum, cpu, i) => sum + cpu - cpuBefore[i], 0);
  const { load } = phase;
  return {
    rate: perHostRate * hosts.length,
    deliveriesPerSecond: Math.round(phase.verified / seconds),
    verified: phase.verified,
    neverArrived: phase.neverArrived,
    firstAttemptMs: phase.acceptToFirstAttemptMs,
    attemptsPerHost: after.map((a, i) => a.attempts - before[i].attempts),
    hostCpuUsPerDelivery: Math.round((cpuSeconds * 1e6) / phase.verified),
    machineBusyCores: load.machineBusyCores,
    dbServerUsPerDelivery:
      load.dbServerCores === undefined
        ? null
        : Math.round((load.dbServerCores * load.seconds * 1e6) / phase.verified),
    throttledShare: hosts.map(
      (h, i) =>
        Math.round((((h.budget?.throttledSeconds() ?? 0) - throttledBefore[i]) / load.seconds) * 100) / 100,
    ),
    perDelivery: perDelivery(before, after, phase.verified),
  };
}

/**
 * Prints the paced rounds: per number of hosts, the medians of the rounds, and each cost per delivery
 * against one host's.
 */
export function reportPaced(results, keys, label) {
  const med = (key, pick) =>
    percentile(
      results.rounds.map((r) => pick(r[key])),
      50,
    );
  const summary = {};
  for (const key of keys)
    summary[key] = {
      rate: results.rounds[0][key].rate,
      hostCpuUsPerDelivery: med(key, (r) => r.hostCpuUsPerDelivery),
      perDelivery: Object.fromEntries(COSTS.map((c) => [c, med(key, (r) => r.perDelivery[c])])),
    };
  results.summary = summary;
  const one = summary['1'];
  const x = (v, base, key) => (base && key !== '1' && v !== null ? ` (${fmt(v / base, 2)}x)` : '');
  console.log(
    `\n${table(
      [
        '',
        'events/s',
        'p50 / p99 ms POST -> 1st attempt',
        'host CPU µs / delivery',
        'PostgreSQL µs / delivery',
        'machine busy cores',
        'held back by the budget (each host)',
        'lost',
      ],
      keys.map((key) => [
        label(key),
        fmt(summary[key].rate, 0),
        `${fmt(
          med(key, (r) => r.firstAttemptMs.p50),
          1,
        )} / ${fmt(
          med(key, (r) => r.firstAttemptMs.p99),
          1,
        )}`,
        `${fmt(summary[key].hostCpuUsPerDelivery, 0)}${x(summary[key].hostCpuUsPerDelivery, one?.hostCpuUsPerDelivery, key)}`,
        fmt(
          med(key, (r) => r.dbServerUsPerDelivery),
          0,
        ),
        fmt(
          med(key, (r) => r.machineBusyCores),
          2,
        ),
        results.rounds.at(-1)[key].throttledShare.join(' / '),
        String(results.rounds.reduce((s, r) => s + r[key].neverArrived, 0)),
      ]),
    )}`,
  );
  printCosts(summary, keys, label);
}
