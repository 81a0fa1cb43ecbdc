// `npm run bench:scale-out`: does a second host on the same PostgreSQL database add delivery capacity?
// A benchmark: it reports, it does not assert. Traffic to 127.0.0.1 only; databases created for the run
// and dropped at its end (also after an error, the watchdog or Ctrl-C).
//
// Why a separate benchmark (docs/benchmarks.md, "Several hosts: capacity"): on a machine with 2 cores the
// CPU-bound burst of `bench:delivery` already keeps both cores busy with one host (host + PostgreSQL +
// receiver + load generator), so a second host process can only share the same cores. Here the receiver
// answers after a fixed latency (`--delay-ms`, default 50) and each host has few delivery slots
// (`--slots`, default 16), so one host's capacity is bounded by its slots (slots / latency), far below
// what the cores allow: a second host should double it, if work really spreads over both hosts.
//
// Per round (default 3, rotating order): a burst of `--count` events (default 3,000) for one host, for two
// hosts on one database (POSTed to them in turn), and for two hosts apart (each on a database of its own,
// each sent half the burst on half the connections: nothing shared, so the most two of these hosts can
// deliver on this machine, the reference for the pair that shares a database); measured from the first
// POST until the receiver has verified every accepted event. Each host's own attempt counter
// (`GET /metrics`) shows how the deliveries spread over the hosts.
//
// Per burst it also reads each host process's CPU (/proc) and, when the server has `pg_stat_statements`
// (the extension created in the database of --database-url; `shared_preload_libraries` set), the
// statements the burst ran, per delivery, and the server's own time in them (execution, plus planning with
// `pg_stat_statements.track_planning = on`): where a second host's extra cost comes from
// (docs/benchmarks.md, "Two hosts on two cores: where the CPU goes", and the sixth pass on PostgreSQL). The CPU-bound case of `bench:delivery` is
// `--delay-ms=0 --slots=64 --post-concurrency=32 --count=6000`.
//
// `--host-cpus=F` gives each host process a CPU budget of its own (F cores, a cgroup quota; needs root):
// the nearest this 2-core machine comes to each host on its own machine. With it, the CPU-bound burst
// asks whether a second host adds capacity when the host, not the machine, is the bound
// (docs/benchmarks.md, "Two hosts, each with its own CPU budget").
//
// Options: --delay-ms=N (0 or more), --slots=N, --count=N, --rounds=N, --post-concurrency=N (default 64),
// --host-cpus=F (cores per host, above 0; default no limit), --warmup=N (events per backend before the
// rounds, default 500; a host under a small budget compiles its hot code slowly: give it thousands), --delivery-thread=1|0 (the hosts'
// PLATFORM_DELIVERY_THREAD; default the host's own),
// --database-url=URL (default postgres://postgres@127.0.0.1:5432/test or $BENCH_DATABASE_URL).
import pg from 'pg';
import { benchHostEnv, DEFAULT_DATABASE_URL, startBackend } from './backend.mjs';
import { installWatchdog, runCleanups } from './cleanup.mjs';
import { procCpuSeconds } from './host-process.mjs';
import { ADMIN_TOKEN, fmt, machine, percentile, startReceiver, table, writeResults } from './lib.mjs';
import { burstPhase, warmUp } from './phases.mjs';

function rawOption(name, fallback) {
  const arg = process.argv.slice(2).find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
}

function option(name, fallback, min = 1) {
  const raw = rawOption(name, fallback);
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) {
    console.error(`--${name} must be a whole number of at least ${min}; got "${raw}"`);
    process.exit(2);
  }
  return value;
}

const O = {
  delayMs: option('delay-ms', '50', 0),
  slots: option('slots', '16'),
  count: option('count', '3000'),
  rounds: option('rounds', '3'),
  warmup: option('warmup', '500'),
  databaseUrl: rawOption('database-url', process.env.BENCH_DATABASE_URL ?? DEFAULT_DATABASE_URL),
  postConcurrency: option('post-concurrency', '64'),
  hostCpus: cores(rawOption('host-cpus', '')),
  deliveryThread: onOff(rawOption('delivery-thread', '')),
};

function onOff(raw) {
  if (raw === '') return undefined;
  if (raw === '1' || raw === '0') return raw;
  console.error(`--delivery-thread must be 1 (on) or 0 (off); got "${raw}"`);
  process.exit(2);
}

function cores(raw) {
  if (raw === '') return null;
  const value = Number(raw);
  if (!(value > 0 && value <= 64)) {
    console.error(`--host-cpus must be a number of cores above 0 (e.g. 0.4); got "${raw}"`);
    process.exit(2);
  }
  return value;
}

/**
 * The statements of the benchmark's databases from `pg_stat_statements`, or null when the server has none:
 * `reset()` before a burst, `perDelivery(databaseNames, n)` after it (calls per delivery, by statement).
 */
async function statementCounter(databaseUrl) {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_stat_statements_reset()');
  } catch {
    await admin.end();
    return null;
  }
  return {
    reset: () => admin.query('SELECT pg_stat_statements_reset()'),
    async perDelivery(databaseNames, deliveries) {
      const { rows } = await admin.query(
        `SELECT SUM(calls)::bigint AS calls, SUM(total_plan_time + total_exec_time) AS ms,
                regexp_replace(query, '\\s+', ' ', 'g') AS query
           FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
          WHERE d.datname = ANY($1) GROUP BY 3`,
        [databaseNames],
      );
      // One line per kind of statement: its verb and table (IN lists and row counts vary).
      const byKind = new Map();
      for (const { calls, ms, query } of rows) {
        const write = /^(WITH \w+ AS \(\w+ INTO \w+|UPDATE \w+|INSERT INTO \w+|DELETE FROM \w+)/i.exec(query);
        const read = /^SELECT\b.*?\bFROM (\w+)/i.exec(query);
        const kind = write ? write[0] : read ? `SELECT … FROM ${read[1]}` : query.slice(0, 40);
        const sum = byKind.get(kind) ?? { calls: 0, ms: 0 };
        byKind.set(kind, { calls: sum.calls + Number(calls), ms: sum.ms + Number(ms) });
      }
      const calls = {};
      const serverUs = {};
      for (const [kind, sum] of [...byKind].sort((a, b) => b[1].calls - a[1].calls)) {
        calls[kind] = Math.round((sum.calls / deliveries) * 1000) / 1000;
        serverUs[kind] = Math.round((sum.ms * 1000) / deliveries);
      }
      return { calls, serverUs };
    },
    end: () => admin.end(),
  };
}

/** The host's own count of attempts (all outcomes), from its Prometheus text. */
async function attemptsOf(hostUrl) {
  const res = await fetch(`${hostUrl}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const text = await res.text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('platform_webhook_attempts_total{')) total += Number(line.split(' ').at(-1));
  }
  return total;
}

/** The rows of the report: one host; two hosts on one database; two hosts apart (a database each). */
const KEYS = ['1', '2', 'apart'];
const LABELS = {
  1: 'PostgreSQL, one host',
  2: 'PostgreSQL, two hosts',
  apart: 'two hosts apart (a database each)',
};

/**
 * Two one-host backends, each on its own database, driven as one: each takes half of a burst on half of
 * the POST connections. Nothing is shared between them (no queue, no signals), so what they deliver
 * together is the most two of these hosts can deliver on this machine: the reference for the two hosts
 * that do share a database (docs/benchmarks.md, "two hosts that share nothing", seventh pass).
 */
function apart(a, b) {
  return {
    key: 'apart',
    hosts: [...a.hosts, ...b.hosts],
    secrets: [a.secret, b.secret],
    databaseNames: [a.databaseName, b.databaseName],
    serverCpu: null,
    poster: {
      async burst(count, concurrency) {
        const half = Math.max(1, Math.floor(concurrency / 2));
        const [x, y] = await Promise.all([
          a.poster.burst(Math.ceil(count / 2), half),
          b.poster.burst(Math.floor(count / 2), Math.max(1, concurrency - half)),
        ]);
        return { start: Math.min(x.start, y.start), results: [...x.results, ...y.results] };
      },
    },
    async stop() {
      await a.stop();
      await b.stop();
    },
  };
}

async function main() {
  installWatchdog('bench:scale-out', 900);
  const info = machine();
  console.log(
    `scale-out: ${O.count} events per burst, receiver latency ${O.delayMs} ms, ${O.slots} delivery slots per host, ` +
      `${O.rounds} rounds; ${info.nproc} cores (${info.cpuModel}), ${info.node}`,
  );
  const ceiling = (O.slots * 1000) / O.delayMs;
  console.log(
    `one host's slot-bound ceiling: ${O.slots} / ${O.delayMs} ms = ${fmt(ceiling, 0)} deliveries/s`,
  );
  const statements = await statementCounter(O.databaseUrl);
  console.log(
    statements
      ? 'statements per delivery: from pg_stat_statements'
      : 'statements per delivery: not measured (no pg_stat_statements on this server)',
  );
  const receiver = await startReceiver();
  if (O.hostCpus !== null) console.log(`each host limited to ${O.hostCpus} cores (a cgroup of its own)`);
  const hostEnv = {
    ...benchHostEnv({ deliveryThread: O.deliveryThread }),
    PLATFORM_DELIVERY_CONCURRENCY: String(O.slots),
  };
  const backends = [];
  const results = { date: new Date().toISOString(), machine: info, options: O, rounds: [] };
  try {
    const start = (hosts) =>
      startBackend({
        kind: 'pg',
        hosts,
        hostEnv,
        databaseUrl: O.databaseUrl,
        receiverUrl: receiver.url,
        postConcurrency: O.postConcurrency,
        hostCpus: O.hostCpus,
      });
    for (const hosts of [1, 2]) backends.push({ ...(await start(hosts)), key: `${hosts}` });
    const first = await start(1);
    try {
      backends.push(apart(first, await start(1)));
    } catch (error) {
      await first.stop();
      throw error;
    }
    receiver.configure({
      secrets: backends.flatMap((b) => b.secrets ?? [b.secret]),
      failRate: 0,
      delayMs: O.delayMs,
    });
    for (const b of backends) await warmUp(receiver, b, O.warmup, O.postConcurrency);
    for (let round = 0; round < O.rounds; round++) {
      const row = {};
      for (let k = 0; k < backends.length; k++) {
        const b = backends[(k + round) % backends.length];
        const before = await Promise.all(b.hosts.map((h) => attemptsOf(h.url)));
        await statements?.reset();
        const cpuBefore = b.hosts.map((h) => procCpuSeconds(h.pid));
        const throttledBefore = b.hosts.map((h) => h.budget?.throttledSeconds() ?? 0);
        const burst = await burstPhase(receiver, b, O.count, O.postConcurrency);
        const cpuAfter = b.hosts.map((h) => procCpuSeconds(h.pid));
        const after = await Promise.all(b.hosts.map((h) => attemptsOf(h.url)));
        const hostCpuSeconds = cpuAfter.reduce((sum, cpu, i) => sum + cpu - cpuBefore[i], 0);
        // The share of the burst each host spent held back by its budget (0 without --host-cpus).
        const throttledShare = b.hosts.map(
          (h, i) =>
            Math.round(
              (((h.budget?.throttledSeconds() ?? 0) - throttledBefore[i]) / burst.load.seconds) * 100,
            ) / 100,
        );
        row[b.key] = {
          deliveriesPerSecond: burst.deliveriesPerSecond,
          verified: burst.verified,
          neverArrived: burst.neverArrived,
          attemptsPerHost: after.map((a, i) => a - before[i]),
          machineBusyCores: burst.load.machineBusyCores,
          hostProcessCores: burst.load.hostProcessCores,
          hostCpuUsPerDelivery: Math.round((hostCpuSeconds * 1e6) / burst.verified),
          hostCores: cpuAfter.map(
            (cpu, i) => Math.round(((cpu - cpuBefore[i]) / burst.load.seconds) * 100) / 100,
          ),
          throttledShare,
          ...(statements
            ? await statements
                .perDelivery(b.databaseNames ?? [b.databaseName], burst.verified)
                .then(({ calls, serverUs }) => ({
                  statementsPerDelivery: calls,
                  serverUsPerDelivery: serverUs,
                }))
            : {}),
        };
      }
      results.rounds.push(row);
      console.log(
        `round ${round + 1}: one host ${fmt(row['1'].deliveriesPerSecond, 0)}/s, two hosts ${fmt(row['2'].deliveriesPerSecond, 0)}/s ` +
          `(attempts per host ${row['2'].attemptsPerHost.join(' / ')}), two hosts apart ${fmt(row.apart.deliveriesPerSecond, 0)}/s`,
      );
    }
  } finally {
    for (const b of backends) await b.stop().catch((error) => console.error(`stopping: ${error}`));
    await receiver.stop();
    await statements?.end();
  }
  const med = (key, field) =>
    percentile(
      results.rounds.map((r) => r[key][field]),
      50,
    );
  const one = med('1', 'deliveriesPerSecond');
  const two = med('2', 'deliveriesPerSecond');
  const twoApart = med('apart', 'deliveriesPerSecond');
  results.summary = {
    oneHost: one,
    twoHosts: two,
    ratio: two / one,
    twoHostsApart: twoApart,
    ratioApart: twoApart / one,
    ceilingOneHost: ceiling,
  };
  console.log(
    `\n${table(
      [
        '',
        'deliveries/s (median)',
        'machine busy cores',
        'host cores',
        'host CPU µs / delivery',
        'held back by the budget (share of the burst, each host)',
        'lost',
      ],
      KEYS.map((key) => [
        LABELS[key],
        fmt(med(key, 'deliveriesPerSecond'), 0),
        fmt(med(key, 'machineBusyCores'), 2),
        fmt(med(key, 'hostProcessCores'), 2),
        fmt(med(key, 'hostCpuUsPerDelivery'), 0),
        O.hostCpus === null ? '—' : results.rounds.at(-1)[key].throttledShare.join(' / '),
        String(results.rounds.reduce((s, r) => s + r[key].neverArrived, 0)),
      ]),
    )}`,
  );
  console.log(`two hosts / one host: ${fmt(two / one, 2)} (target: at least 1)`);
  console.log(
    `two hosts apart / one host: ${fmt(twoApart / one, 2)} (no shared queue: the most two of these hosts can add here)\n` +
      `two hosts / two hosts apart: ${fmt(two / twoApart, 2)} (what sharing one database and queue costs)`,
  );
  if (statements) {
    // The last round's counts (the code is warmest there).
    const last = results.rounds.at(-1);
    const kinds = [...new Set(KEYS.flatMap((key) => Object.keys(last[key].statementsPerDelivery)))];
    const total = (key, field) => Object.values(last[key][field]).reduce((a, b) => a + b, 0);
    // The server's time is planning + execution as pg_stat_statements times them (planning only with
    // pg_stat_statements.track_planning = on): time inside PostgreSQL, not the round trip.
    console.log(
      `\nstatements per delivery, last round (and the server's µs per delivery in them):\n${table(
        ['statement', 'one host', 'two hosts', 'two hosts apart'],
        [
          ...kinds.map((kind) => [
            kind,
            ...KEYS.map(
              (key) =>
                `${fmt(last[key].statementsPerDelivery[kind] ?? 0, 3)} (${fmt(last[key].serverUsPerDelivery[kind] ?? 0, 0)} µs)`,
            ),
          ]),
          [
            'all',
            ...KEYS.map(
              (key) =>
                `${fmt(total(key, 'statementsPerDelivery'), 2)} (${fmt(total(key, 'serverUsPerDelivery'), 0)} µs)`,
            ),
          ],
        ],
      )}`,
    );
  }
  writeResults(results, 'scale-out');
}

main().then(
  () => runCleanups().then(() => process.exit(0)),
  (error) => {
    console.error(error);
    void runCleanups().then(() => process.exit(1));
  },
);
