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
// hosts on one database (each event POSTed to the host with the fewest in flight: --balance), and for two
// hosts apart (each on a database of its own,
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
// --paced=R (events a second per host, instead of a burst: what a delivery costs at the same rate per
// host, scale-out-paced.mjs), --paced-seconds=N (default 10), --balance=least|turns (how a burst's events
// are spread over hosts on one database: `least`, the default, sends each to the host with the fewest POSTs
// in flight, so each holds --post-concurrency, as a least-connections balancer does; `turns` sends them in
// turn, as the runs before 2026-11-29 (eighth session) did, and then a host that answers faster than the
// slowest holds fewer in flight, accepts smaller groups and costs more per delivery: docs/benchmarks.md,
// "How a burst is spread over the hosts"),
// --host-node-args="FLAGS" (options of every host's `node`, space-separated, as in bench:delivery; e.g.
// --host-node-args=--single-threaded-gc), --host-env=K=V[,K=V...] (settings added to every host's
// environment, e.g. --host-env=PLATFORM_ACCEPT_GATHER_MS=4),
// --database-url=URL (default postgres://postgres@127.0.0.1:5432/test or $BENCH_DATABASE_URL), --rev=REV (every
// host built from git revision REV, as `bench:delivery:ab` does with `rev=`; default the current build).
import pg from 'pg';
import { benchHostEnv, DEFAULT_DATABASE_URL, startBackend } from './backend.mjs';
import { installWatchdog, runCleanups } from './cleanup.mjs';
import { COSTS, countersOf, perDelivery, printCosts } from './host-counters.mjs';
import { procCpuSeconds } from './host-process.mjs';
import { fmt, machine, percentile, startReceiver, table, writeResults } from './lib.mjs';
import { burstPhase, warmUp } from './phases.mjs';
import { afterQuietCheck } from './quiet.mjs';
import { pacedRun, reportPaced } from './scale-out-paced.mjs';

function rawOption(name, fallback) {
  // The last one wins (bench/device/run.sh adds options after its defaults).
  const arg = process.argv.slice(2).findLast((a) => a.startsWith(`--${name}=`));
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
  hosts: hostsList(rawOption('hosts', '1,2')),
  receiverProcesses: autoCount('receiver-processes'),
  loadThreads: autoCount('load-threads'),
  rev: rawOption('rev', ''),
  paced: option('paced', '0', 0),
  pacedSeconds: option('paced-seconds', '10'),
  balance: rawOption('balance', 'least'),
  hostNode: rawOption('host-node-args', '').split(' ').filter(Boolean),
  hostEnv: envList(rawOption('host-env', '')),
};
/** `--host-env=K=V[,K=V...]`: settings added to every host's environment. */
function envList(raw) {
  const env = {};
  for (const pair of raw.split(',').filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq < 1) {
      console.error(`--host-env is a list of KEY=VALUE separated by commas; got "${pair}"`);
      process.exit(2);
    }
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}
if (O.balance !== 'least' && O.balance !== 'turns') {
  console.error(`--balance must be "least" or "turns"; got "${O.balance}"`);
  process.exit(2);
}
// N hosts apart (a database each, N the most hosts of the run) is the reference of the N-host row: on by
// default with --hosts=1,2 (as before), else with --apart=1.
// A paced run has no "apart" row (its posters split a burst, not a schedule).
O.apart =
  O.paced === 0 && onOff(rawOption('apart', O.hosts.includes(2) && O.hosts.length <= 2 ? '1' : '0')) === '1';

function onOff(raw) {
  if (raw === '') return undefined;
  if (raw === '1' || raw === '0') return raw;
  console.error(`--delivery-thread and --apart must be 1 (on) or 0 (off); got "${raw}"`);
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

function hostsList(raw) {
  const list = raw.split(',').map(Number);
  if (list.length === 0 || !list.every((n) => Number.isSafeInteger(n) && n >= 1 && n <= 16)) {
    console.error(`--hosts must be whole numbers from 1 to 16, comma-separated (e.g. 1,2,4); got "${raw}"`);
    process.exit(2);
  }
  return [...new Set(list)].sort((a, b) => a - b);
}

/**
 * `--receiver-processes` / `--load-threads`: a whole number, or `auto` (the default): one on a machine of
 * fewer than 8 cores (more processes would only share the same cores with the hosts), else as many as the
 * most hosts of the run, 2 to 8: each stays well under one core at the rates that many hosts reach.
 */
function autoCount(name) {
  const raw = rawOption(name, 'auto');
  if (raw === 'auto') return null;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1 || value > 32) {
    console.error(`--${name} must be auto or a whole number from 1 to 32; got "${raw}"`);
    process.exit(2);
  }
  return value;
}

function resolveAuto(value, nproc, most) {
  if (value !== null) return value;
  return nproc < 8 ? 1 : Math.min(8, Math.max(2, most));
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

/**
 * One-host backends, each on its own database (on the same server), driven as one: each takes an even
 * share of a burst on an even share of the POST connections. They share no queue and no signals, only the
 * PostgreSQL server, so what they deliver together is the most that many hosts can deliver here when the
 * queue is not shared: the reference for as many hosts that do share a database (docs/benchmarks.md,
 * "Several hosts on many cores").
 */
function apart(parts) {
  const n = parts.length;
  const share = (total, i) => Math.floor(total / n) + (i < total % n ? 1 : 0);
  return {
    key: 'apart',
    hosts: parts.flatMap((p) => p.hosts),
    secrets: parts.map((p) => p.secret),
    databaseNames: parts.map((p) => p.databaseName),
    // The server processes of all their databases (by pid, so none is counted twice).
    serverCpu: async () => Object.assign({}, ...(await Promise.all(parts.map((p) => p.serverCpu())))),
    poster: {
      async burst(count, concurrency) {
        const runs = await Promise.all(
          parts.map((p, i) => p.poster.burst(share(count, i), Math.max(1, share(concurrency, i)))),
        );
        return { start: Math.min(...runs.map((r) => r.start)), results: runs.flatMap((r) => r.results) };
      },
    },
    async stop() {
      for (const p of parts) await p.stop();
    },
  };
}

/**
 * What bound a burst, from its load: the receiver (its busiest process near one core), the load generator
 * (its threads near one core each), the hosts' CPU budgets (held back for much of the burst), the machine
 * (every core busy), or else the hosts and the database themselves.
 */
function boundOf(m, threads, nproc) {
  const bounds = [];
  if ((m.receiverBusiestProcessCores ?? 0) >= 0.85) bounds.push('receiver');
  if ((m.benchProcessCores ?? 0) >= 0.85 * threads) bounds.push('load generator');
  if (Math.max(0, ...(m.throttledShare ?? [])) >= 0.3) bounds.push('host budget');
  if ((m.machineBusyCores ?? 0) >= 0.9 * nproc) bounds.push('machine');
  return bounds.length ? bounds.join(' + ') : 'hosts / database';
}

async function main() {
  installWatchdog('bench:scale-out', 900 + O.hosts.length * O.rounds * 120);
  // Every host of the run from the host as it was at a revision (build-rev.mjs), for a before / after.
  if (O.rev) {
    // Imported only here: build-rev.mjs needs esbuild and the repository's scripts/, which
    // bench/device/pack.sh does not carry to a device.
    const { buildHostAt } = await import('./build-rev.mjs');
    process.env.BENCH_HOST_MAIN = await buildHostAt(O.rev);
    console.log(`hosts: the host at ${O.rev} (${process.env.BENCH_HOST_MAIN})`);
  }
  const info = machine();
  const most = Math.max(...O.hosts);
  const receiverProcesses = resolveAuto(O.receiverProcesses, info.nproc, most);
  const loadThreads = resolveAuto(O.loadThreads, info.nproc, most);
  // The "apart" row: as many one-host backends as the most hosts of the run (at least two).
  const apartCount = Math.max(2, most);
  console.log(
    `scale-out: ${O.paced > 0 ? `${O.paced} events/s per host for ${O.pacedSeconds} s` : `${O.count} events per burst`}, receiver latency ${O.delayMs} ms, ${O.slots} delivery slots per host, ` +
      `${O.rounds} rounds, hosts ${O.hosts.join(' / ')}${O.apart ? ` and ${Math.max(2, most)} hosts apart` : ''}; ` +
      `${info.nproc} cores (${info.cpuModel}), ${info.node}`,
  );
  console.log(
    `receiver: ${receiverProcesses} process(es); load generator: ${loadThreads} thread(s), ${O.postConcurrency} POSTs in flight per host${O.paced > 0 ? '' : O.balance === 'least' ? ' (each event to the host with the fewest in flight)' : ' (events to the hosts in turn)'}`,
  );
  if (O.delayMs > 0)
    console.log(
      `one host's slot-bound ceiling: ${O.slots} / ${O.delayMs} ms = ${fmt((O.slots * 1000) / O.delayMs, 0)} deliveries/s`,
    );
  const statements = await statementCounter(O.databaseUrl);
  console.log(
    statements
      ? "statements per delivery: the hosts' own count, and pg_stat_statements by kind"
      : "statements per delivery: the hosts' own count (no pg_stat_statements on this server for the breakdown)",
  );
  const receiver = await startReceiver({ processes: receiverProcesses });
  if (O.hostCpus !== null) console.log(`each host limited to ${O.hostCpus} cores (a cgroup of its own)`);
  if (O.hostNode.length > 0) console.log(`each host runs node ${O.hostNode.join(' ')}`);
  const extraEnv = Object.entries(O.hostEnv).map(([key, value]) => `${key}=${value}`);
  if (extraEnv.length > 0) console.log(`each host's environment adds ${extraEnv.join(' ')}`);
  const hostEnv = {
    ...benchHostEnv({ deliveryThread: O.deliveryThread }),
    PLATFORM_DELIVERY_CONCURRENCY: String(O.slots),
    ...O.hostEnv,
  };
  const backends = [];
  const results = {
    date: new Date().toISOString(),
    machine: info,
    options: { ...O, receiverProcesses, loadThreads },
    rounds: [],
  };
  try {
    const start = (hosts, threads = loadThreads) =>
      startBackend({
        kind: 'pg',
        hosts,
        hostEnv,
        databaseUrl: O.databaseUrl,
        receiverUrl: receiver.url,
        postConcurrency: O.postConcurrency * hosts,
        hostCpus: O.hostCpus,
        loadThreads: threads,
        balance: O.paced > 0 ? 'turns' : O.balance,
        nodeArgs: O.hostNode,
      });
    for (const hosts of O.hosts) backends.push({ ...(await start(hosts)), key: `${hosts}` });
    if (O.apart) {
      const parts = [];
      const each = Math.max(1, Math.floor(loadThreads / apartCount));
      try {
        for (let i = 0; i < apartCount; i++) parts.push(await start(1, each));
      } catch (error) {
        for (const p of parts) await p.stop();
        throw error;
      }
      backends.push(apart(parts));
    }
    receiver.configure({
      secrets: backends.flatMap((b) => b.secrets ?? [b.secret]),
      failRate: 0,
      delayMs: O.delayMs,
    });
    // The load grows with the hosts (POSTs in flight per host): a fixed number in flight would bound N hosts
    // by the load generator's own round trips (Little's law), not by what the hosts can do.
    const inFlight = (b) => O.postConcurrency * b.hosts.length;
    for (const b of backends) await warmUp(receiver, b, O.warmup, inFlight(b));
    for (let round = 0; round < O.rounds; round++) {
      const row = {};
      for (let k = 0; k < backends.length; k++) {
        const b = backends[(k + round) % backends.length];
        if (O.paced > 0) {
          row[b.key] = await pacedRun(receiver, b, { perHostRate: O.paced, seconds: O.pacedSeconds });
          continue;
        }
        const before = await Promise.all(b.hosts.map((h) => countersOf(h)));
        await statements?.reset();
        const cpuBefore = b.hosts.map((h) => procCpuSeconds(h.pid));
        const throttledBefore = b.hosts.map((h) => h.budget?.throttledSeconds() ?? 0);
        const burst = await burstPhase(receiver, b, O.count, inFlight(b));
        const cpuAfter = b.hosts.map((h) => procCpuSeconds(h.pid));
        const after = await Promise.all(b.hosts.map((h) => countersOf(h)));
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
          attemptsPerHost: after.map((a, i) => a.attempts - before[i].attempts),
          machineBusyCores: burst.load.machineBusyCores,
          hostProcessCores: burst.load.hostProcessCores,
          hostCpuUsPerDelivery: Math.round((hostCpuSeconds * 1e6) / burst.verified),
          hostCores: cpuAfter.map(
            (cpu, i) => Math.round(((cpu - cpuBefore[i]) / burst.load.seconds) * 100) / 100,
          ),
          receiverCores: burst.load.receiverProcessCores,
          receiverBusiestProcessCores: Math.round(burst.load.receiverBusiestProcessCores * 100) / 100,
          benchProcessCores: burst.load.benchProcessCores,
          dbServerCores: burst.load.dbServerCores ?? null,
          dbServerUsPerDelivery:
            burst.load.dbServerCores === undefined
              ? null
              : Math.round((burst.load.dbServerCores * burst.load.seconds * 1e6) / burst.verified),
          throttledShare,
          perDelivery: perDelivery(before, after, burst.verified),
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
        `round ${round + 1}: ${backends
          .map(
            (b) =>
              `${b.key === 'apart' ? `${b.hosts.length} apart` : `${b.key} host(s)`} ${fmt(row[b.key].deliveriesPerSecond, 0)}/s` +
              (b.hosts.length > 1 ? ` (attempts per host ${row[b.key].attemptsPerHost.join(' / ')})` : ''),
          )
          .join(', ')}`,
      );
    }
  } finally {
    for (const b of backends) await b.stop().catch((error) => console.error(`stopping: ${error}`));
    await receiver.stop();
    await statements?.end();
  }
  if (O.paced > 0)
    reportPaced(
      results,
      backends.map((b) => b.key),
      (key) => `${key} host${key === '1' ? '' : 's'}, one database`,
    );
  else
    report(
      results,
      backends.map((b) => b.key),
      loadThreads,
      info.nproc,
      apartCount,
    );
  writeResults(results, 'scale-out');
}

function report(results, keys, loadThreads, nproc, apartCount) {
  const med = (key, pick) =>
    percentile(
      results.rounds.map((r) => pick(r[key])),
      50,
    );
  const label = (key) =>
    key === 'apart'
      ? `${apartCount} hosts apart (a database each)`
      : `${key} host${key === '1' ? '' : 's'}, one database`;
  const one = keys.includes('1') ? med('1', (r) => r.deliveriesPerSecond) : null;
  const summary = {};
  for (const key of keys) {
    const rate = med(key, (r) => r.deliveriesPerSecond);
    summary[key] = {
      deliveriesPerSecond: rate,
      xOneHost: one ? Math.round((rate / one) * 100) / 100 : null,
      hostCpuUsPerDelivery: med(key, (r) => r.hostCpuUsPerDelivery),
      perDelivery: Object.fromEntries(COSTS.map((c) => [c, med(key, (r) => r.perDelivery[c])])),
      bound: boundOf(
        results.rounds.at(-1)[key],
        key === 'apart' ? Math.max(1, Math.floor(loadThreads / 2)) * 2 : loadThreads,
        nproc,
      ),
    };
  }
  results.summary = summary;
  // Kept for the earlier reports and tools that read them.
  if (summary['1'] && summary['2']) {
    Object.assign(results.summary, {
      oneHost: summary['1'].deliveriesPerSecond,
      twoHosts: summary['2'].deliveriesPerSecond,
      ratio: summary['2'].xOneHost,
      ...(summary.apart
        ? { twoHostsApart: summary.apart.deliveriesPerSecond, ratioApart: summary.apart.xOneHost }
        : {}),
    });
  }
  console.log(
    `\n${table(
      [
        '',
        'deliveries/s (median)',
        'x one host',
        'host cores',
        'host CPU µs / delivery',
        'receiver cores (busiest process)',
        'load generator cores',
        'machine busy cores',
        'PostgreSQL cores (µs / delivery)',
        'held back by the budget (each host)',
        'bound',
        'lost',
      ],
      keys.map((key) => [
        label(key),
        fmt(summary[key].deliveriesPerSecond, 0),
        fmt(summary[key].xOneHost, 2),
        fmt(
          med(key, (r) => r.hostProcessCores),
          2,
        ),
        fmt(summary[key].hostCpuUsPerDelivery, 0),
        `${fmt(
          med(key, (r) => r.receiverCores),
          2,
        )} (${fmt(
          med(key, (r) => r.receiverBusiestProcessCores),
          2,
        )})`,
        fmt(
          med(key, (r) => r.benchProcessCores),
          2,
        ),
        fmt(
          med(key, (r) => r.machineBusyCores),
          2,
        ),
        `${fmt(
          med(key, (r) => r.dbServerCores),
          2,
        )} (${fmt(
          med(key, (r) => r.dbServerUsPerDelivery),
          0,
        )})`,
        results.options.hostCpus === null ? '—' : results.rounds.at(-1)[key].throttledShare.join(' / '),
        summary[key].bound,
        String(results.rounds.reduce((s, r) => s + r[key].neverArrived, 0)),
      ]),
    )}`,
  );
  printCosts(summary, keys, label);
  const statementKeys = keys.filter((key) => results.rounds.at(-1)[key].statementsPerDelivery);
  if (statementKeys.length > 0) {
    // The last round's counts (the code is warmest there).
    const last = results.rounds.at(-1);
    const kinds = [...new Set(statementKeys.flatMap((key) => Object.keys(last[key].statementsPerDelivery)))];
    const total = (key, field) => Object.values(last[key][field]).reduce((a, b) => a + b, 0);
    // The server's time is planning + execution as pg_stat_statements times them (planning only with
    // pg_stat_statements.track_planning = on): time inside PostgreSQL, not the round trip.
    console.log(
      `\nstatements per delivery by kind, pg_stat_statements, last round (and the server's µs per delivery in them):\n${table(
        ['statement', ...statementKeys.map(label)],
        [
          ...kinds.map((kind) => [
            kind,
            ...statementKeys.map(
              (key) =>
                `${fmt(last[key].statementsPerDelivery[kind] ?? 0, 3)} (${fmt(last[key].serverUsPerDelivery[kind] ?? 0, 0)} µs)`,
            ),
          ]),
          [
            'all',
            ...statementKeys.map(
              (key) =>
                `${fmt(total(key, 'statementsPerDelivery'), 2)} (${fmt(total(key, 'serverUsPerDelivery'), 0)} µs)`,
            ),
          ],
        ],
      )}`,
    );
  }
}

afterQuietCheck(main).then(
  () => runCleanups().then(() => process.exit(0)),
  (error) => {
    console.error(error);
    void runCleanups().then(() => process.exit(1));
  },
);
