// `npm run bench:delivery`: webhook delivery throughput and latency of the host against the raw ceiling,
// to one loopback receiver (its own process). A benchmark: it reports, it does not assert.
// Bounded: fixed counts and durations, a watchdog, traffic to 127.0.0.1 only. How to run and what each
// row means: docs/benchmarks.md.
//
// Options (after `npm run bench:delivery --`):
// `--backend=sqlite` (default) | `pg` | `both`: the host's storage. `pg` creates a fresh database
//   `platform_bench_<random>` for the run (through `--database-url=`, default
//   postgres://postgres@127.0.0.1:5432/test, or $BENCH_DATABASE_URL), starts the host(s) with
//   DATABASE_URL, and drops it at the end, also after an error, the watchdog or Ctrl-C (unless the
//   environment has BENCH_KEEP_DATABASE=1: then it is kept, and named, for a look at its plans and rows).
//   `both` (= `--compare`, compare.mjs): the raw ceiling, SQLite and PostgreSQL (and PostgreSQL with
//   `--hosts` hosts) in ONE run, bursts in alternating rounds, then the same paced and retry phases for
//   each, printed side by side with the ratios and targets.
// `--hosts=N` (1..3, PostgreSQL, process mode): N host processes on one database, each on its own port;
//   events go to them in turn, the webhook installation is made on host 1; CPU is reported per host.
// `--kill-one` (with `--hosts=2` or more): a last phase posts 5,000 events (1,000 in --quick) and kills
//   the last host with kill -9 halfway; it reports accepted events (202) that never reached the receiver
//   after the others took over (waiting for the lease: PLATFORM_DELIVERY_TIMEOUT_MS + 5 s).
// `--no-bullmq`: no BullMQ reference (bullmq.mjs; by default, when a redis-server is found, BullMQ 6 on a
//   Redis of the run's own (a free port, a temp folder, AOF `appendfsync everysec`) bursts right after the
//   host in every round, and the host's burst is printed as a ratio to it; with `--backend=both` it also
//   runs the paced and 10 %-500 phases, as one more column).
// `--paced-rate=1000`: the fixed-rate paced phase (events/s, default 1000), besides ½ and ¼ of the peak.
// `--rounds=N`: alternating raw/burst rounds (default 3; 1 with --quick).
// `--warmup=N`: events per backend (and raw POSTs) before the first round (default 20,000; 100 with --quick):
//   a host's CPU per delivery keeps falling over its first ≈ 15,000 events (docs/benchmarks.md, "Warm-up").
// `--host=process` (default) spawns the built host as its own process (`node [npm start's options]
//   packages/host/dist/main.js`, as `npm start` does); `--host=inprocess` starts it inside this process with `startHost` (the load
//   generator then shares the host's main thread; one host, one backend).
// `--quick` runs a smaller version (for trying the script out; not for recorded figures).
// `--thread=0|1` sets the host's PLATFORM_DELIVERY_THREAD (default: the host's own default, or the env var).
// `--sqlite-sync=normal|full`: the host's PLATFORM_SQLITE_SYNC (default: the host's default, full).
// `--event-ids=sortable`: events carry ids shaped like the host's own (time first) instead of random ones.
// `--profile` also writes a CPU profile of this process (host + load generator) during the burst.
// `--host-profile` (process mode) runs the host with `node --cpu-prof`: one V8 CPU profile per thread of
// the host (main + delivery worker), of the whole run, written to a temp folder printed at the end.
// `--host-node-args="--max-semi-space-size=16 ..."` (process mode) passes options to the host's `node`.
// Each host's log (LOG_LEVEL=warn) goes to a file; the report counts its lines and lists the most
// frequent warnings and errors (e.g. a storage error on every retry).
import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@platform/host';
import { benchHostEnv, startBackendWith } from './backend.mjs';
import { startBullmqWith } from './bullmq.mjs';
import { installWatchdog, onCleanup, runCleanups } from './cleanup.mjs';
import { runCompare } from './compare.mjs';
import { npmStartNodeArgs, spawnHost } from './host-process.mjs';
import {
  ADMIN_TOKEN,
  fmt,
  machine,
  now,
  percentile,
  startProfiler,
  startReceiver,
  writeResults,
} from './lib.mjs';
import { eventPoster } from './load.mjs';
import { params, parseOptions } from './options.mjs';
import { burstPhase, failingPhase, killRun, pacedPhase, rawRunner, warmUp } from './phases.mjs';
import { quietBefore } from './quiet.mjs';
import { printReport } from './report.mjs';

const O = parseOptions(process.argv.slice(2));
const P = params(O);

/**
 * The stateless relay's burst (its own process, one thread): what the host's HTTP work alone allows on this
 * machine, as a ratio to a raw round measured just before.
 */
async function relayPhase(receiver, secret, installationId, raw) {
  const relay = await spawnHost(
    {
      RELAY_TARGET: receiver.url,
      RELAY_SECRET: secret,
      RELAY_INSTALLATION: installationId,
      RELAY_CONCURRENCY: String(P.concurrency),
    },
    [],
    fileURLToPath(new URL('./relay.mjs', import.meta.url)),
  );
  const poster = eventPoster({
    hostUrl: relay.url,
    adminToken: ADMIN_TOKEN,
    installationId,
    connections: P.postConcurrency,
    sortableIds: O.eventIds === 'sortable',
  });
  const target = { hosts: [relay], poster };
  try {
    await warmUp(receiver, target, P.warmup, P.postConcurrency);
    const rawRound = await raw.measure(P.concurrency);
    const burst = await burstPhase(receiver, target, P.burstCount, P.postConcurrency);
    return {
      rawPerSecond: rawRound.deliveriesPerSecond,
      raw: rawRound,
      burst,
      ratio: Math.round((burst.deliveriesPerSecond / rawRound.deliveriesPerSecond) * 100) / 100,
    };
  } finally {
    await poster.close();
    await relay.stop();
  }
}

async function main() {
  const info = machine();
  const uptime = execFileSync('uptime', { encoding: 'utf8' }).trim();
  console.log(`bench:delivery${O.quick ? ' (quick)' : ''}: ${info.nproc} cores, node ${info.node}`);
  console.log(`uptime before the run: ${uptime}`);
  info.quietBefore = await quietBefore();
  const receiver = await startReceiver();
  onCleanup(() => receiver.stop());
  const hostEnv = benchHostEnv(O);
  // The delivery mode the host resolves from this environment (same function, same defaults).
  const mode = loadConfig(hostEnv).deliveryThread ? 'thread' : 'main';
  const hostProfileDir = O.hostProfile ? await mkdtemp(join(tmpdir(), 'platform-bench-host-profile-')) : null;
  if (O.backend === 'both') {
    return runCompare({ options: O, params: P, receiver, hostEnv, info, uptime, hostProfileDir, mode });
  }
  const backend = await startBackendWith(O, P, {
    kind: O.backend,
    hosts: O.hosts,
    hostEnv,
    receiverUrl: receiver.url,
    profileDir: hostProfileDir,
  });
  const host = backend.hosts[0];
  console.log(
    `storage: ${backend.label}${backend.databaseName ? ` (database ${backend.databaseName}, dropped at the end)` : ''}`,
  );
  // The hosts' command line as spawnHost builds it: npm start's node options, then this run's own.
  const hostCommand =
    O.hostMode === 'process'
      ? `node ${[...npmStartNodeArgs(), ...O.hostNodeArgs].join(' ')} packages/host/dist/main.js`
      : null;
  console.log(
    `host: ${hostCommand ? `own process (${hostCommand}, pid ${backend.hosts.map((h) => h.pid).join(', ')})` : 'in this process (startHost)'}, ready in ${host.startupMs} ms`,
  );
  console.log(
    `delivery engine: ${mode === 'thread' ? 'worker thread (PLATFORM_DELIVERY_THREAD=1)' : 'main thread (PLATFORM_DELIVERY_THREAD=0)'}`,
  );
  const results = {
    date: new Date().toISOString(),
    quick: O.quick,
    hostMode: O.hostMode,
    hostCommand,
    backend: O.backend,
    hosts: O.hosts,
    hostStartupMs: host.startupMs,
    deliveryThread: mode === 'thread',
    sqliteSync: loadConfig(hostEnv).sqliteSync,
    eventIds: O.eventIds,
    machine: info,
    uptimeBefore: uptime,
    params: P,
  };
  const { installationId, secret } = backend;
  const bull = await startBullmqWith(O, P, receiver.url);
  const secrets = bull ? [secret, bull.secret] : [secret];
  try {
    receiver.configure({ secrets, failRate: 0 });
    const raw = rawRunner(receiver, backend, P);
    await raw.warm(P.concurrency);
    await warmUp(receiver, backend, P.warmup, P.postConcurrency);
    if (bull) await warmUp(receiver, bull, P.warmup, P.postConcurrency);

    const rounds = [];
    for (let round = 0; round < P.rounds; round++) {
      const rawRound = await raw.measure(P.concurrency);
      const profiler = O.profile && round === 0 ? await startProfiler() : null;
      const burstRound = await burstPhase(receiver, backend, P.burstCount, P.postConcurrency);
      if (profiler)
        results.profile = await profiler.stop(
          join(tmpdir(), `bench-delivery-burst-${Date.now()}.cpuprofile`),
        );
      const ratio = burstRound.deliveriesPerSecond / rawRound.deliveriesPerSecond;
      // The BullMQ reference right after, in the same round (the machine's drift cancels out).
      const bullRound = bull ? await burstPhase(receiver, bull, P.burstCount, P.postConcurrency) : null;
      rounds.push({ raw: rawRound, burst: burstRound, ratio, bull: bullRound });
    }
    const median = [...rounds].sort((x, y) => x.ratio - y.ratio)[Math.floor(rounds.length / 2)];
    results.raw = median.raw;
    results.burst = median.burst;
    results.rounds = rounds.map((r) => ({
      rawPerSecond: r.raw.deliveriesPerSecond,
      burstPerSecond: r.burst.deliveriesPerSecond,
      ratio: Math.round(r.ratio * 100) / 100,
      ...(r.bull ? { bullmqPerSecond: r.bull.deliveriesPerSecond } : {}),
    }));
    if (bull) {
      const vs = rounds.map((r) => r.burst.deliveriesPerSecond / r.bull.deliveriesPerSecond);
      results.bullmq = {
        redis: bull.redis,
        burstPerSecond: percentile(
          rounds.map((r) => r.bull.deliveriesPerSecond),
          50,
        ),
        hostOverBullmq: Math.round(percentile(vs, 50) * 100) / 100,
        rounds: vs.map((x) => Math.round(x * 100) / 100),
      };
    }
    await raw.warm(8);
    results.raw8 = await raw.measure(8);

    // (r) Reference: the stateless relay (bench/delivery/relay.mjs), the same burst right after a raw round.
    results.relay = await relayPhase(receiver, secret, installationId, raw);

    const rate = Math.max(10, Math.round(results.burst.peakPerSecond / 2));
    results.pacedRate = rate;
    results.paced = await pacedPhase(receiver, backend, rate, P.pacedSeconds, P.concurrency);
    // Extra row: a quarter of the peak, for the latency of a host that is not near saturation.
    const light = Math.max(5, Math.round(results.burst.peakPerSecond / 4));
    results.pacedLight = await pacedPhase(receiver, backend, light, P.lightSeconds, P.concurrency);
    // A fixed rate, the same on every backend and machine (the issue's "paced at 1,000 events/s").
    results.pacedFixed = await pacedPhase(receiver, backend, P.fixedRate, P.fixedSeconds, P.concurrency);

    // (c) The receiver answers 500 to 10% of attempts: at the ½-peak rate, then (extra) at ¼ peak.
    receiver.configure({ secrets, failRate: P.failRate });
    const failing = (phaseRate) =>
      failingPhase(receiver, backend, {
        rate: phaseRate,
        seconds: P.retrySeconds,
        maxInFlight: P.concurrency,
        failRate: P.failRate,
        settleMs: P.settleMs,
      });
    results.retries = await failing(rate);
    results.retriesLight = await failing(light);
    receiver.configure({ secrets, failRate: 0 });
    if (O.killOne) results.kill = await killRun(receiver, backend, hostEnv, P);
  } finally {
    await bull?.stop();
    const stopStart = now();
    const stopped = await backend.stop();
    results.hostStop = stopped.hostStops[0];
    results.hostStops = stopped.hostStops;
    results.hostLogs = stopped.hostLogs;
    results.shutdownMs = Math.round(now() - stopStart);
  }
  results.ratio =
    Math.round((results.burst.deliveriesPerSecond / results.raw.deliveriesPerSecond) * 100) / 100; // the median round's
  results.uptimeAfter = execFileSync('uptime', { encoding: 'utf8' }).trim();

  printReport(results);
  if (results.bullmq)
    console.log(
      `\nBullMQ reference (bullmq 6 on Redis with AOF appendfsync everysec, same receiver, ${P.concurrency} in flight): ` +
        `burst ${fmt(results.bullmq.burstPerSecond, 0)} deliveries/s (median of rounds); host / BullMQ, same round: ` +
        `${fmt(results.bullmq.hostOverBullmq, 2)} (rounds ${results.bullmq.rounds.join(', ')})`,
    );
  const name = `${O.backend}${O.hosts > 1 ? `-${O.hosts}hosts` : ''}-${O.hostMode}-${mode}`;
  writeResults(results, name);
  if (hostProfileDir) console.log(`host CPU profiles (one per thread) in ${hostProfileDir}`);
}

// Bounded: the 10 %-500 phases may wait for retries that come late (a lease), the kill phase for a lease.
const budgetSeconds =
  (O.backend === 'both' ? 1500 : O.backend === 'pg' ? 600 : 240) + (O.killOne ? 90 : 0) + (O.hosts - 1) * 60;
installWatchdog('bench:delivery', budgetSeconds);

main().then(
  async () => {
    await runCleanups();
    process.exit(0);
  },
  async (error) => {
    console.error('bench:delivery failed:', error);
    await runCleanups();
    process.exit(1);
  },
);
