// `npm run bench:delivery`: webhook delivery throughput and latency of the host (SQLite) against the
// raw ceiling, to one loopback receiver (its own process). A benchmark: it reports, it does not assert.
// Bounded: fixed counts and durations, a watchdog at 170 s, traffic to 127.0.0.1 only.
// `--host=process` (default) spawns the built host as its own process (`node packages/host/dist/main.js`,
// as `npm start` does); `--host=inprocess` starts it inside this process with `startHost` (the load
// generator then shares the host's main thread).
// `--quick` runs a smaller version (for trying the script out; not for recorded figures).
// `--thread=0|1` sets the host's PLATFORM_DELIVERY_THREAD (default: the host's own default, or the env var).
// `--profile` also writes a CPU profile of this process (host + load generator) during the burst.
// `--host-profile` (process mode) runs the host with `node --cpu-prof`: one V8 CPU profile per thread of
// the host (main + delivery worker), of the whole run, written to a temp folder printed at the end.
// `--host-node-args="--max-semi-space-size=16 ..."` (process mode) passes options to the host's `node`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@platform/host';
import { analyzeHost, analyzeHostGaps, analyzeRaw, analyzeRetries } from './analyze.mjs';
import { inProcessHost, spawnHost } from './host-process.mjs';
import {
  ADMIN_TOKEN,
  cpuSampler,
  hostApi,
  installWebhook,
  machine,
  now,
  R,
  startProfiler,
  startReceiver,
} from './lib.mjs';
import { eventPoster, rawPosts } from './load.mjs';
import { printReport } from './report.mjs';

const quick = process.argv.includes('--quick');
const profile = process.argv.includes('--profile');
const hostProfile = process.argv.includes('--host-profile');
const hostNodeArgs = (
  process.argv.find((a) => a.startsWith('--host-node-args='))?.slice('--host-node-args='.length) ?? ''
)
  .split(' ')
  .filter(Boolean);
const P = {
  concurrency: 64, // raw requests in flight, and the host's PLATFORM_DELIVERY_CONCURRENCY
  rawCount: quick ? 600 : 6000,
  burstCount: quick ? 600 : 6000,
  postConcurrency: 32, // POST /v1/events in flight (client side, bounded)
  warmup: quick ? 100 : 2000, // per phase group, raw and host alike: the host has far more code for V8 to optimize
  pacedSeconds: quick ? 3 : 10,
  retrySeconds: quick ? 2 : 5,
  lightSeconds: quick ? 2 : 5,
  failRate: 0.1,
  // (a) and (b) are measured in alternating rounds (raw, burst, raw, burst, ...); the ratio reported is the
  // median round's: the machine's speed drifts by tens of percent within minutes.
  rounds: quick ? 1 : 3,
};
const threadArg = process.argv.find((a) => a.startsWith('--thread='))?.slice('--thread='.length);
const deliveryThread = threadArg ?? process.env.PLATFORM_DELIVERY_THREAD;
const hostMode = process.argv.find((a) => a.startsWith('--host='))?.slice('--host='.length) ?? 'process';
// `--sqlite-sync=normal|full`: the host's PLATFORM_SQLITE_SYNC (default: the host's default, full).
const sqliteSync = process.argv.find((a) => a.startsWith('--sqlite-sync='))?.slice('--sqlite-sync='.length);
// `--event-ids=sortable`: events carry ids shaped like the host's own (time first) instead of random ones.
const eventIds =
  process.argv.find((a) => a.startsWith('--event-ids='))?.slice('--event-ids='.length) ?? 'random';
if (eventIds !== 'random' && eventIds !== 'sortable') {
  console.error(`bench:delivery: --event-ids must be "random" or "sortable"; got "${eventIds}".`);
  process.exit(2);
}
if (hostMode !== 'process' && hostMode !== 'inprocess') {
  console.error(`bench:delivery: --host must be "process" or "inprocess"; got "${hostMode}".`);
  process.exit(2);
}

const watchdog = setTimeout(() => {
  console.error('bench:delivery: still running after 170 s; giving up (results incomplete).');
  process.exit(2);
}, 170_000);
watchdog.unref();

/** Runs `fn` between a receiver reset and a dump; returns its result, the records and load figures. */
async function measured(receiver, host, fn) {
  receiver.reset();
  const cpu = cpuSampler();
  const hostBefore = host.cpu?.();
  const threadsBefore = host.cpu ? host.threads() : null;
  const run = await fn();
  const load = cpu.stop();
  const hostAfter = host.cpu?.();
  const threadsAfter = host.cpu ? host.threads() : null;
  const { records, cpu: receiverCpu } = await receiver.dump();
  load.receiverProcessCores = (receiverCpu.user + receiverCpu.system) / 1e6 / load.seconds;
  let otherThreads = null;
  if (hostBefore && hostAfter) {
    // The host is its own process: its CPU from /proc/<pid>/stat (whole process and main thread).
    load.hostProcessCores = (hostAfter.process - hostBefore.process) / load.seconds;
    load.hostMainThreadCores = (hostAfter.main - hostBefore.main) / load.seconds;
    // Threads are all named "node": the busiest one besides the main thread is the delivery worker
    // thread when PLATFORM_DELIVERY_THREAD=1 (else a libuv or GC helper).
    const others = Object.keys(threadsAfter)
      .filter((k) => !k.startsWith(`${host.pid}:`))
      .map((k) => (threadsAfter[k] - (threadsBefore[k] ?? 0)) / load.seconds);
    load.hostBusiestOtherThreadCores = Math.max(0, ...others);
    // Every other thread's cores, busiest first (Node names them all "node": the delivery worker, V8's
    // platform workers for GC and compilation, the libuv pool).
    otherThreads = others
      .filter((cores) => cores >= 0.005)
      .sort((a, b) => b - a)
      .map((cores) => Math.round(cores * 100) / 100);
  }
  for (const k of Object.keys(load)) load[k] = Math.round(load[k] * 100) / 100;
  if (otherThreads) load.hostOtherThreadsCores = otherThreads;
  return { run, records, load };
}

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
    sortableIds: eventIds === 'sortable',
  });
  try {
    receiver.reset();
    const warm = await poster.burst(P.warmup, P.postConcurrency);
    await receiver.waitFor(warm.results.filter((r) => !r.error).length, 30_000);
    const rawRound = await raw(P.concurrency);
    const burst = await measured(receiver, relay, async () => {
      const run = await poster.burst(P.burstCount, P.postConcurrency);
      await receiver.waitFor(run.results.filter((r) => !r.error).length, 90_000);
      return run;
    });
    const result = { ...analyzeHost(burst.run, burst.records), load: burst.load };
    return {
      rawPerSecond: rawRound.deliveriesPerSecond,
      raw: rawRound,
      burst: result,
      ratio: Math.round((result.deliveriesPerSecond / rawRound.deliveriesPerSecond) * 100) / 100,
    };
  } finally {
    await poster.close();
    await relay.stop();
  }
}

async function main() {
  const info = machine();
  const uptime = execFileSync('uptime', { encoding: 'utf8' }).trim();
  console.log(`bench:delivery${quick ? ' (quick)' : ''}: ${info.nproc} cores, node ${info.node}`);
  console.log(`uptime before the run: ${uptime}`);

  const receiver = await startReceiver();
  const dataDir = await mkdtemp(join(tmpdir(), 'platform-bench-'));
  const hostEnv = {
    PLATFORM_DATA_DIR: dataDir,
    PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
    PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
    PLATFORM_DELIVERY_CONCURRENCY: String(P.concurrency),
    ...(deliveryThread === undefined ? {} : { PLATFORM_DELIVERY_THREAD: deliveryThread }),
    ...(sqliteSync === undefined ? {} : { PLATFORM_SQLITE_SYNC: sqliteSync }),
    LOG_LEVEL: 'warn',
  };
  // The delivery mode the host resolves from this environment (same function, same defaults).
  const mode = loadConfig(hostEnv).deliveryThread ? 'thread' : 'main';
  const hostProfileDir = hostProfile ? await mkdtemp(join(tmpdir(), 'platform-bench-host-profile-')) : null;
  const host =
    hostMode === 'process'
      ? await spawnHost(hostEnv, [
          ...hostNodeArgs,
          ...(hostProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${hostProfileDir}`] : []),
        ])
      : await inProcessHost(hostEnv);
  console.log(
    `host: ${hostMode === 'process' ? `own process (node packages/host/dist/main.js, pid ${host.pid})` : 'in this process (startHost)'}, ready in ${host.startupMs} ms`,
  );
  console.log(
    `delivery engine: ${mode === 'thread' ? 'worker thread (PLATFORM_DELIVERY_THREAD=1)' : 'main thread (PLATFORM_DELIVERY_THREAD=0)'}`,
  );
  const results = {
    date: new Date().toISOString(),
    quick,
    hostMode,
    hostStartupMs: host.startupMs,
    deliveryThread: mode === 'thread',
    sqliteSync: loadConfig(hostEnv).sqliteSync,
    eventIds,
    machine: info,
    uptimeBefore: uptime,
    params: P,
  };
  let poster;
  try {
    const { installationId, secret } = await installWebhook(host.url, receiver.url);
    receiver.configure({ secrets: [secret], failRate: 0 });

    // (a) Raw ceiling, same concurrency over 64 sockets; and over 8 (the host dispatcher's per-origin pool).
    const rawOpts = (connections) => ({
      url: receiver.url,
      secret,
      installationId,
      concurrency: P.concurrency,
      connections,
    });
    const raw = async (connections) => {
      const m = await measured(receiver, host, async () => {
        const run = await rawPosts({ ...rawOpts(connections), count: P.rawCount });
        await receiver.waitFor(P.rawCount, 30_000);
        return run;
      });
      return { connections, ...analyzeRaw(m.run, m.records), load: m.load };
    };
    await rawPosts({ ...rawOpts(P.concurrency), count: P.warmup });

    // (b) Through the host. Warm up (JIT, SQLite page cache, sockets) first.
    poster = eventPoster({
      hostUrl: host.url,
      adminToken: ADMIN_TOKEN,
      installationId,
      connections: P.postConcurrency,
      sortableIds: eventIds === 'sortable',
    });
    receiver.reset(); // the wait below must count only the warm-up's own events
    const warm = await poster.burst(P.warmup, P.postConcurrency);
    await receiver.waitFor(warm.results.filter((r) => !r.error).length, 30_000);

    const rounds = [];
    for (let round = 0; round < P.rounds; round++) {
      const rawRound = await raw(P.concurrency);
      const profiler = profile && round === 0 ? await startProfiler() : null;
      const burst = await measured(receiver, host, async () => {
        const run = await poster.burst(P.burstCount, P.postConcurrency);
        await receiver.waitFor(run.results.filter((r) => !r.error).length, 90_000);
        return run;
      });
      if (profiler)
        results.profile = await profiler.stop(
          join(tmpdir(), `bench-delivery-burst-${Date.now()}.cpuprofile`),
        );
      const burstRound = { ...analyzeHost(burst.run, burst.records), load: burst.load };
      const ratio = burstRound.deliveriesPerSecond / rawRound.deliveriesPerSecond;
      rounds.push({ raw: rawRound, burst: burstRound, ratio });
    }
    const median = [...rounds].sort((x, y) => x.ratio - y.ratio)[Math.floor(rounds.length / 2)];
    results.raw = median.raw;
    results.burst = median.burst;
    results.rounds = rounds.map((r) => ({
      rawPerSecond: r.raw.deliveriesPerSecond,
      burstPerSecond: r.burst.deliveriesPerSecond,
      ratio: Math.round(r.ratio * 100) / 100,
    }));
    await rawPosts({ ...rawOpts(8), count: P.warmup });
    results.raw8 = await raw(8);

    // (r) Reference: the stateless relay (bench/delivery/relay.mjs), the same burst right after a raw round.
    results.relay = await relayPhase(receiver, secret, installationId, raw);

    const rate = Math.max(10, Math.round(results.burst.peakPerSecond / 2));
    results.pacedRate = rate;
    const paced = await measured(receiver, host, async () => {
      const run = await poster.paced(rate, P.pacedSeconds, P.concurrency);
      await receiver.waitFor(run.results.filter((r) => !r.error).length, 30_000);
      return run;
    });
    results.paced = { rate, ...analyzeHost(paced.run, paced.records), load: paced.load };

    // Extra row: a quarter of the peak, for the latency of a host that is not near saturation.
    const light = Math.max(5, Math.round(results.burst.peakPerSecond / 4));
    const lightRun = await measured(receiver, host, async () => {
      const run = await poster.paced(light, P.lightSeconds, P.concurrency);
      await receiver.waitFor(run.results.filter((r) => !r.error).length, 30_000);
      return run;
    });
    results.pacedLight = { rate: light, ...analyzeHost(lightRun.run, lightRun.records), load: lightRun.load };

    // (c) The receiver answers 500 to 10% of attempts: at the ½-peak rate, then (extra) at ¼ peak.
    receiver.configure({ secrets: [secret], failRate: P.failRate });
    const failingPhase = async (phaseRate) => {
      const failing = await measured(receiver, host, async () => {
        const run = await poster.paced(phaseRate, P.retrySeconds, P.concurrency);
        const accepted = run.results.filter((r) => !r.error).length;
        // Longest series: 1.1 + 2.2 + 4.4 s of delays after the first attempt, plus slack.
        await receiver.waitFor(accepted, 25_000, 'settled');
        return run;
      });
      // The host's own attempt log of every retried delivery (a few dozen GETs, after the measurement).
      const retried = new Set(failing.records.filter((r) => r[R.attempt] > 1).map((r) => r[R.deliveryId]));
      const deliveries = [];
      for (const id of retried) {
        deliveries.push(
          await hostApi(host.url, 'GET', `/v1/installations/${installationId}/deliveries/${id}`),
        );
      }
      return {
        rate: phaseRate,
        failRate: P.failRate,
        ...analyzeHost(failing.run, failing.records),
        ...analyzeRetries(failing.run, failing.records),
        hostRecorded: analyzeHostGaps(deliveries, failing.records),
        load: failing.load,
      };
    };
    results.retries = await failingPhase(rate);
    results.retriesLight = await failingPhase(light);
  } finally {
    const stopStart = now();
    await poster?.close();
    results.hostStop = await host.stop();
    await receiver.stop();
    await rm(dataDir, { recursive: true, force: true });
    results.shutdownMs = Math.round(now() - stopStart);
  }
  results.ratio =
    Math.round((results.burst.deliveriesPerSecond / results.raw.deliveriesPerSecond) * 100) / 100; // the median round's
  results.uptimeAfter = execFileSync('uptime', { encoding: 'utf8' }).trim();

  printReport(results);
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const stamp = results.date.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  const file = join(dir, `delivery-${stamp}-${hostMode}-${mode}${quick ? '-quick' : ''}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nresults written to ${file}`);
  if (hostProfileDir) console.log(`host CPU profiles (one per thread) in ${hostProfileDir}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error('bench:delivery failed:', error);
    process.exit(1);
  },
);
