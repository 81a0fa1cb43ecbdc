// `npm run bench:rates` (`node bench/delivery/rates.mjs`): where one host's CPU goes per delivery at a given
// rate of events, thread by thread (issue 30: "at 100, 1,000 and burst rates"). One host (its own process,
// the defaults of `npm start`), one webhook installation, the benchmark's verifying receiver; after a
// warm-up burst, one phase per rate: `N` events/s for `--seconds` (POST -> first attempt p50 / p99), or
// `burst` (`--burst` events, 32 POSTs in flight). For each phase it prints, per delivery: the host's CPU
// (user, system), the main thread's, the delivery thread's (the busiest other thread) and the other
// threads' (libuv's pool, V8's helpers), and the context switches of each (a thread that sleeps and is
// woken: on these virtual machines a wake-up costs more than most of the work it wakes for).
//
//   node bench/delivery/rates.mjs [--backend=sqlite|pg] [--rates=100,1000,burst] [--seconds=10]
//     [--burst=20000] [--profile=DIR] [--delivery-thread=1|0] [--relay]
//
// `--delivery-thread=0` runs the host's queue engine on its main thread (PLATFORM_DELIVERY_THREAD=0).
// `--relay` then runs the same phases against the stateless relay (bench/delivery/relay.mjs: HTTP in, 202,
// sign, HTTP out from a second thread; no storage, no validation), its own process, in the same run: what the
// HTTP work alone costs per delivery at each rate on this machine, the floor under the host's figure.
//
// A rate `idle` measures the host without events for `--seconds`; its row is per second (µs: millionths of
// a core; switches: wake-ups a second). `--profile=DIR` also writes a V8 CPU profile of every host thread
// per phase (DIR/<phase>-t<thread>.cpuprofile, through profile-hook.cjs) and prints each thread's ten
// largest self times. The profiler samples wall
// time: a thread blocked in a synchronous system call (an inline `fdatasync`) shows as busy in it.
// `--backend=pg` uses a fresh database of its own (dropped at the end). A benchmark: it prints, it asserts
// nothing; 127.0.0.1 only.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeHost } from './analyze.mjs';
import { benchHostEnv, createBenchDatabase, DEFAULT_DATABASE_URL } from './backend.mjs';
import { installWatchdog, runCleanups } from './cleanup.mjs';
import { procThreadStats, spawnHost } from './host-process.mjs';
import { ADMIN_TOKEN, installWebhook, sleep, startReceiver, table } from './lib.mjs';
import { eventPoster } from './load.mjs';
import { pacedPhase } from './phases.mjs';
import { afterQuietCheck } from './quiet.mjs';

const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const backend = arg('backend', 'sqlite');
const rates = arg('rates', '100,1000,burst').split(',');
const seconds = Number(arg('seconds', '10'));
const burstCount = Number(arg('burst', '20000'));
const profileDir = process.argv.some((a) => a.startsWith('--profile=')) ? resolve(arg('profile')) : null;
const withRelay = process.argv.includes('--relay');

function usage(problem) {
  console.error(`bench/delivery/rates.mjs: ${problem}`);
  console.error(
    'usage: node bench/delivery/rates.mjs [--backend=sqlite|pg] [--rates=100,1000,burst] [--seconds=10] [--burst=20000] [--profile=DIR] [--delivery-thread=1|0] [--relay]',
  );
  process.exit(2);
}
if (backend !== 'sqlite' && backend !== 'pg') usage(`--backend must be "sqlite" or "pg"; got "${backend}"`);
for (const r of rates)
  if (r !== 'burst' && r !== 'idle' && !(Number.isInteger(Number(r)) && Number(r) > 0))
    usage(`--rates is a list of whole numbers > 0, "burst" or "idle"; got "${r}"`);
if (!(Number.isInteger(seconds) && seconds > 0)) usage('--seconds must be a whole number > 0');
if (!(Number.isInteger(burstCount) && burstCount > 0)) usage('--burst must be a whole number > 0');
const deliveryThread = arg('delivery-thread', undefined);
if (deliveryThread !== undefined && deliveryThread !== '0' && deliveryThread !== '1')
  usage(`--delivery-thread must be 1 or 0; got "${deliveryThread}"`);

installWatchdog('bench/delivery/rates.mjs', (withRelay ? 2 : 1) * (300 + rates.length * (seconds + 120)));
/** Per thread: user and system CPU seconds, context switches (voluntary + involuntary). */
function threads(pid) {
  const out = new Map();
  for (const [tid, t] of procThreadStats(pid))
    out.set(tid, { user: t.user, system: t.system, switches: t.voluntary + t.involuntary });
  return out;
}

/** What the host's threads spent between two snapshots, per delivery: µs of CPU and context switches. */
function perDelivery(pid, before, after, deliveries) {
  const rows = [...after].map(([tid, a]) => {
    const b = before.get(tid) ?? { user: 0, system: 0, switches: 0 };
    return { tid, user: a.user - b.user, system: a.system - b.system, switches: a.switches - b.switches };
  });
  const main = rows.find((r) => r.tid === String(pid));
  const others = rows.filter((r) => r !== main).sort((x, y) => y.user + y.system - (x.user + x.system));
  const [delivery, ...rest] = others;
  const us = (s) => Math.round((s / deliveries) * 1e6);
  const sum = (list, key) => list.reduce((s, r) => s + r[key], 0);
  return {
    user: us(sum(rows, 'user')),
    system: us(sum(rows, 'system')),
    main: us((main?.user ?? 0) + (main?.system ?? 0)),
    delivery: us((delivery?.user ?? 0) + (delivery?.system ?? 0)),
    other: us(sum(rest, 'user') + sum(rest, 'system')),
    switches: [main, delivery].map((r) => ((r?.switches ?? 0) / deliveries).toFixed(2)),
    otherSwitches: (sum(rest, 'switches') / deliveries).toFixed(2),
  };
}

/** The ten largest self times of a V8 CPU profile, as shares of the samples that were not idle. */
function topSelf(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id).callFrame;
    if (frame.functionName === '(idle)') return;
    const dt = profile.timeDeltas[i] ?? 0;
    busy += dt;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}`.trim();
    self.set(name, (self.get(name) ?? 0) + dt);
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([name, t]) => `${((100 * t) / busy).toFixed(1).padStart(5)} %  ${name}`);
}

/**
 * Runs every phase of `rates` against one process (`proc`: spawnHost's handle) fed by `poster`, after a
 * warm-up burst; one row per phase, labelled `label`. `onPhase(i, 'start' | 'end')` brackets each phase
 * (the profiler's signal).
 */
async function measurePhases(receiver, proc, poster, label, onPhase = () => {}) {
  const rows = [];
  receiver.reset();
  const warm = await poster.burst(3000, 32);
  await receiver.waitFor(warm.results.filter((r) => !r.error).length, 60_000);
  for (const [i, rate] of rates.entries()) {
    receiver.reset();
    onPhase(i, 'start');
    const before = threads(proc.pid);
    let figures;
    if (rate === 'idle') {
      await sleep(seconds * 1000);
      // "Per delivery" of an idle host: per second, so µs read as millionths of a core.
      figures = { deliveries: seconds, perSecond: 0, p50: '–', p99: '–' };
    } else if (rate === 'burst') {
      const started = performance.now();
      const run = await poster.burst(burstCount, 32);
      await receiver.waitFor(run.results.filter((r) => !r.error).length, 120_000);
      const elapsed = (performance.now() - started) / 1000;
      const burst = analyzeHost(run, (await receiver.dump()).records);
      figures = { deliveries: burst.verified, perSecond: burst.verified / elapsed, p50: '–', p99: '–' };
    } else {
      const paced = await pacedPhase(receiver, { hosts: [proc], poster }, Number(rate), seconds, 64);
      const ms = paced.postToFirstAttemptMs;
      figures = { deliveries: paced.verified, perSecond: paced.verified / seconds, p50: ms.p50, p99: ms.p99 };
    }
    const cost = perDelivery(proc.pid, before, threads(proc.pid), Math.max(1, figures.deliveries));
    onPhase(i, 'end');
    rows.push({ label, rate, ...figures, ...cost, phase: i + 1 });
  }
  return rows;
}

/** The stateless relay (bench/delivery/relay.mjs), its own process, through every phase. */
async function relayRows(receiver, installationId, secret) {
  const relay = await spawnHost(
    {
      RELAY_TARGET: receiver.url,
      RELAY_SECRET: secret,
      RELAY_INSTALLATION: installationId,
      RELAY_CONCURRENCY: '64',
    },
    [],
    fileURLToPath(new URL('./relay.mjs', import.meta.url)),
  );
  const poster = eventPoster({
    hostUrl: relay.url,
    adminToken: ADMIN_TOKEN,
    installationId,
    connections: 32,
  });
  try {
    return await measurePhases(receiver, relay, poster, 'relay');
  } finally {
    await poster.close();
    await relay.stop();
  }
}

async function main() {
  const receiver = await startReceiver();
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-rates-'));
  const database = backend === 'pg' ? await createBenchDatabase(DEFAULT_DATABASE_URL) : null;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const rawDir = profileDir ? mkdtempSync(join(tmpdir(), 'platform-bench-rates-prof-')) : null;
  const hook = fileURLToPath(new URL('./profile-hook.cjs', import.meta.url));
  const host = await spawnHost({
    PLATFORM_DATA_DIR: dataDir,
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...benchHostEnv({ deliveryThread }),
    ...(rawDir ? { NODE_OPTIONS: `--require ${hook}`, BENCH_PROFILE_DIR: rawDir } : {}),
  });
  let rows = [];
  let installation;
  try {
    const { installationId, secret, publicKey } = await installWebhook(host.url, receiver.url, {});
    installation = { installationId, secret };
    const poster = eventPoster({
      hostUrl: host.url,
      adminToken: ADMIN_TOKEN,
      installationId,
      connections: 32,
    });
    receiver.configure({ secrets: [secret], publicKey, failRate: 0 });
    rows = await measurePhases(receiver, host, poster, 'host', () => {
      if (rawDir) process.kill(host.pid, 'SIGUSR2');
    });
    await poster.close();
  } finally {
    await host.stop();
    await database?.drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }
  try {
    if (withRelay)
      rows.push(...(await relayRows(receiver, installation.installationId, installation.secret)));
  } finally {
    await receiver.close?.();
  }
  console.log(
    `one ${backend === 'pg' ? 'PostgreSQL' : 'SQLite'} host${withRelay ? ', then the stateless relay' : ''}; per delivery:`,
  );
  console.log(
    table(
      [
        'process',
        'rate',
        'deliveries/s',
        'p50 / p99 ms',
        'host µs (user + sys)',
        'main thread µs',
        'delivery thread µs',
        'other threads µs',
        'switches: main, delivery, others',
      ],
      rows.map((r) => [
        r.label,
        r.rate,
        String(Math.round(r.perSecond)),
        `${r.p50} / ${r.p99}`,
        `${r.user + r.system} (${r.user} + ${r.system})`,
        String(r.main),
        String(r.delivery),
        String(r.other),
        `${r.switches.join(', ')}, ${r.otherSwitches}`,
      ]),
    ),
  );
  if (!rawDir || !profileDir) return;
  await sleep(500); // the threads write their profiles when they hear the second signal
  for (const r of rows.filter((row) => row.label === 'host')) {
    for (const file of readdirSync(rawDir).filter((f) => f.endsWith(`-${r.phase}.cpuprofile`))) {
      const target = join(profileDir, `${r.rate}-${file.replace(`-${r.phase}.cpuprofile`, '.cpuprofile')}`);
      copyFileSync(join(rawDir, file), target);
      console.log(`\n${r.rate}: ${target}\n${topSelf(target).join('\n')}`);
    }
  }
  rmSync(rawDir, { recursive: true, force: true });
}

afterQuietCheck(main)
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await runCleanups();
    process.exit(); // the receiver's sockets would keep the process alive
  });
