// `npm run bench:delivery:ab -- --variant=NAME:SETTINGS ...`: compares host builds or settings on the burst
// of `bench:delivery` (b), in ONE run, alternating rounds. This machine's speed drifts by tens of percent
// within minutes, so two builds measured in two runs cannot be compared; here every round measures a raw
// ceiling (a) and then one burst per variant, in rotating order, against the same receiver.
//
// A variant is `NAME:SETTINGS`, SETTINGS a comma-separated list of `KEY=VALUE`: environment variables of the
// host (`PLATFORM_SQLITE_SYNC=normal`), or `rev=REV` for the host as it was at a git revision (built by
// build-rev.mjs into packages/host/dist/ab-<rev>/, resolving the same node_modules and other packages), or
// `main=PATH` for another build of the host kept inside the repository, or `post=N`: the burst's
// POST /v1/events in flight (default 32), or `scheme=NAME`: the installation's signature_scheme (`ed25519`,
// `standard-webhooks`; default the host's, platform), or `node=FLAG`: an option of the host's `node` (one
// each, repeatable: `node=--single-threaded-gc,node=--max-semi-space-size=32`), or `cpus=F`: a CPU budget of
// F cores for the host process (a cgroup quota, as `bench:scale-out --host-cpus`; needs root). `--rounds=N` (default 4),
// `--events=N` per burst (default 6000), `--event-ids=sortable` (default random).
// `--backend=pg` runs every variant on a fresh PostgreSQL database of its own (created through
// `--database-url=`, default postgres://postgres@127.0.0.1:5432/test or $BENCH_DATABASE_URL; dropped at
// the end, also after an error or the watchdog); default `sqlite`.
// `--paced=RATE` (default 1000; 0: none) adds, to every round after the bursts, a paced phase per variant
// (rotating order): RATE events/s for `--paced-seconds=N` (default 10), 64 POSTs in flight at most; it
// reports POST -> first attempt at the receiver, p50 and p99 per round and their medians.
// `--paced-fail=F` (a share below 1; default 0, none): in the paced phases the receiver answers 500 to that share of the
// attempts (as `bench:delivery`'s phase (c)), and each phase lasts until every event has its 200 or its 4th
// attempt (so its CPU per delivery is not comparable with a phase without failures). The report adds the
// claims and the jobs claimed from the queue per delivery (the host's own counters): retries, and first
// attempts that went through the queue instead of being handed over.
// A benchmark: it prints, it asserts nothing; 127.0.0.1 only.
//
//   npm run build && node bench/delivery/ab.mjs --variant=full:PLATFORM_SQLITE_SYNC=full \
//     --variant=normal:PLATFORM_SQLITE_SYNC=normal
//   node bench/delivery/ab.mjs --backend=pg --variant=before:rev=96a8bcd --variant=after:
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { analyzeHost, analyzeRaw } from './analyze.mjs';
import { createBenchDatabase, DEFAULT_DATABASE_URL } from './backend.mjs';
import { buildHostAt } from './build-rev.mjs';
import { installWatchdog, runCleanups } from './cleanup.mjs';
import { limitCpu } from './cpu-budget.mjs';
import { countersOf } from './host-counters.mjs';
import { spawnHost } from './host-process.mjs';
import { ADMIN_TOKEN, installWebhook, percentile, startReceiver, table } from './lib.mjs';
import { eventPoster, rawPosts } from './load.mjs';
import { pacedPhase } from './phases.mjs';
import { afterQuietCheck } from './quiet.mjs';

const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const rounds = Number(arg('rounds', '4'));
const events = Number(arg('events', '6000'));
const sortableIds = arg('event-ids', 'random') === 'sortable';
const backend = arg('backend', 'sqlite');
const databaseUrl = arg('database-url', process.env.BENCH_DATABASE_URL ?? DEFAULT_DATABASE_URL);
const pacedRate = Number(arg('paced', '1000'));
const pacedSeconds = Number(arg('paced-seconds', '10'));
const pacedFail = Number(arg('paced-fail', '0'));

function usage(problem) {
  console.error(`bench:delivery:ab: ${problem}`);
  console.error(
    'usage: node bench/delivery/ab.mjs --variant=NAME:KEY=VALUE[,KEY=VALUE...] --variant=... [--rounds=4] [--events=6000] [--event-ids=random|sortable] [--backend=sqlite|pg] [--database-url=URL] [--paced=1000] [--paced-seconds=10] [--paced-fail=0.1]',
  );
  process.exit(2);
}

/** `NAME:KEY=VALUE,...` → { name, env, main }. */
function parseVariant(spec) {
  const colon = spec.indexOf(':');
  if (colon < 1) usage(`a variant is NAME:SETTINGS; got "${spec}"`);
  const name = spec.slice(0, colon);
  const env = {};
  let main;
  let rev;
  let post = 32;
  let cpus = null;
  const nodeArgs = [];
  const settings = {};
  for (const pair of spec
    .slice(colon + 1)
    .split(',')
    .filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq < 1) usage(`settings are KEY=VALUE; got "${pair}" in variant "${name}"`);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (key === 'main') main = resolve(value);
    else if (key === 'rev') rev = value;
    else if (key === 'post') post = Number(value);
    else if (key === 'scheme') settings.signature_scheme = value;
    else if (key === 'node') nodeArgs.push(value);
    else if (key === 'cpus') cpus = Number(value);
    else env[key] = value;
  }
  if (cpus !== null && !(cpus > 0)) usage(`cpus must be a number of cores above 0 in variant "${name}"`);
  if (!(Number.isInteger(post) && post > 0)) usage(`post must be a whole number > 0 in variant "${name}"`);
  if (main && rev) usage(`give main= or rev=, not both, in variant "${name}"`);
  return { name, env, main, rev, post, cpus, nodeArgs, settings };
}

const specs = process.argv.filter((a) => a.startsWith('--variant=')).map((a) => a.slice('--variant='.length));
if (specs.length < 2) usage('give at least two --variant options');
if (!(Number.isInteger(rounds) && rounds > 0)) usage('--rounds must be a whole number > 0');
if (!(Number.isInteger(events) && events > 0)) usage('--events must be a whole number > 0');
if (backend !== 'sqlite' && backend !== 'pg') usage(`--backend must be "sqlite" or "pg"; got "${backend}"`);
if (!(Number.isInteger(pacedRate) && pacedRate >= 0))
  usage('--paced must be a whole number >= 0 (0: no paced phase)');
if (!(Number.isInteger(pacedSeconds) && pacedSeconds > 0))
  usage('--paced-seconds must be a whole number > 0');
if (!(pacedFail >= 0 && pacedFail < 1)) usage('--paced-fail must be a share of attempts: 0 or more, below 1');

// Bounded: about a minute per variant and round is plenty on a loaded 2-core machine.
installWatchdog('bench:delivery:ab', Math.max(600, 120 * rounds * specs.length));

/** CPU seconds of the host process, its main thread, and its busiest other thread (the delivery thread). */
function hostCpu(host) {
  const { process: all, main } = host.cpu();
  const threads = host.threads();
  return { all, main, threads };
}

async function main() {
  const receiver = await startReceiver();
  const variants = [];
  try {
    for (const spec of specs) {
      const variant = parseVariant(spec);
      const dataDir = await mkdtemp(join(tmpdir(), 'platform-bench-ab-'));
      const database = backend === 'pg' ? await createBenchDatabase(databaseUrl) : null;
      if (variant.rev) {
        variant.main = await buildHostAt(variant.rev);
        console.log(`variant ${variant.name}: the host at ${variant.rev} (${variant.main})`);
      }
      const env = {
        PLATFORM_DATA_DIR: dataDir,
        ...(database ? { DATABASE_URL: database.url } : {}),
        PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
        PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
        PLATFORM_DELIVERY_CONCURRENCY: '64',
        LOG_LEVEL: 'warn',
        ...variant.env,
      };
      const host = await spawnHost(env, variant.nodeArgs, ...(variant.main ? [variant.main] : []));
      if (variant.cpus !== null) host.budget = limitCpu(host.pid, variant.cpus, `ab-${variant.name}`);
      const { installationId, secret, publicKey } = await installWebhook(
        host.url,
        receiver.url,
        variant.settings,
      );
      const poster = eventPoster({
        hostUrl: host.url,
        adminToken: ADMIN_TOKEN,
        installationId,
        connections: variant.post,
        sortableIds,
      });
      variants.push({
        ...variant,
        dataDir,
        host,
        installationId,
        secret,
        publicKey,
        poster,
        rows: [],
        paced: [],
      });
    }
    const raw = async (v) => {
      receiver.configure({ secrets: [v.secret], publicKey: v.publicKey, failRate: 0 });
      receiver.reset();
      const run = await rawPosts({
        url: receiver.url,
        secret: v.secret,
        installationId: v.installationId,
        count: events,
        concurrency: 64,
        connections: 64,
      });
      return analyzeRaw(run, (await receiver.dump()).records).deliveriesPerSecond;
    };
    // Warm-up: JIT, SQLite caches, sockets, for every host and for the raw client.
    for (const v of variants) {
      receiver.configure({ secrets: [v.secret], publicKey: v.publicKey, failRate: 0 });
      receiver.reset();
      const warm = await v.poster.burst(2000, v.post);
      await receiver.waitFor(warm.results.filter((r) => !r.error).length, 60_000);
    }
    await raw(variants[0]);

    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < variants.length; k++) {
        const v = variants[(k + round) % variants.length];
        const rawPerSecond = await raw(v);
        receiver.configure({ secrets: [v.secret], publicKey: v.publicKey, failRate: 0 });
        receiver.reset();
        const before = hostCpu(v.host);
        const run = await v.poster.burst(events, v.post);
        await receiver.waitFor(run.results.filter((r) => !r.error).length, 120_000);
        const after = hostCpu(v.host);
        const burst = analyzeHost(run, (await receiver.dump()).records);
        const delivered = Math.max(1, burst.verified);
        const others = Object.keys(after.threads)
          .filter((key) => !key.startsWith(`${v.host.pid}:`))
          .map((key) => after.threads[key] - (before.threads[key] ?? 0));
        const us = (seconds) => Math.round((seconds / delivered) * 1e6);
        v.rows.push({
          round: round + 1,
          raw: Math.round(rawPerSecond),
          burst: Math.round(burst.deliveriesPerSecond),
          ratio: burst.deliveriesPerSecond / rawPerSecond,
          hostUs: us(after.all - before.all),
          mainUs: us(after.main - before.main),
          deliveryUs: us(Math.max(0, ...others)),
        });
        console.log(
          `round ${round + 1} ${v.name}: raw ${Math.round(rawPerSecond)}/s, burst ${Math.round(burst.deliveriesPerSecond)}/s, ` +
            `(b)/(a) ${(burst.deliveriesPerSecond / rawPerSecond).toFixed(2)}, host ${us(after.all - before.all)} µs/delivery`,
        );
      }
      for (let k = 0; pacedRate > 0 && k < variants.length; k++) {
        const v = variants[(k + round) % variants.length];
        receiver.configure({ secrets: [v.secret], publicKey: v.publicKey, failRate: pacedFail });
        const countersBefore = await countersOf(v.host);
        const paced = await pacedPhase(
          receiver,
          { hosts: [v.host], poster: v.poster },
          pacedRate,
          pacedSeconds,
          64,
          // With failures, the retries run on after the first attempts: the phase ends when they have.
          pacedFail > 0 ? 'settled' : 'ok',
        );
        const countersAfter = await countersOf(v.host);
        // A build from before the host's queue counters reports none: '–', not 0.
        const perDelivery = (key) =>
          countersAfter.counted
            ? ((countersAfter[key] - countersBefore[key]) / Math.max(1, paced.verified)).toFixed(3)
            : '–';
        const row = {
          round: round + 1,
          p50: paced.postToFirstAttemptMs.p50,
          p99: paced.postToFirstAttemptMs.p99,
          // The host's cores over the phase / the deliveries per second it was paced at.
          hostUs: Math.round((paced.load.hostProcessCores / pacedRate) * 1e6),
          mainUs: Math.round((paced.load.hostMainThreadCores / pacedRate) * 1e6),
          deliveryUs: Math.round((paced.load.hostBusiestOtherThreadCores / pacedRate) * 1e6),
          lost: paced.neverArrived,
          claims: perDelivery('claims'),
          claimed: perDelivery('claimed'),
        };
        v.paced.push(row);
        console.log(
          `round ${round + 1} ${v.name}: paced ${pacedRate}/s, POST -> first attempt p50 ${row.p50} ms, p99 ${row.p99} ms, ` +
            `host ${row.hostUs} µs/delivery (main thread ${row.mainUs}, delivery thread ${row.deliveryUs}), ` +
            `accepted but not delivered ${row.lost}, claims ${row.claims} and jobs claimed ${row.claimed} per delivery`,
        );
      }
    }
    const median = (values) => percentile(values, 50);
    console.log('');
    console.log(
      table(
        [
          'variant',
          '(b)/(a) per round',
          'median',
          'burst deliveries/s (median)',
          'host µs/delivery (median)',
          'main thread',
          'delivery thread',
        ],
        variants.map((v) => [
          v.name,
          v.rows.map((r) => r.ratio.toFixed(2)).join(', '),
          median(v.rows.map((r) => r.ratio)).toFixed(2),
          String(median(v.rows.map((r) => r.burst))),
          String(median(v.rows.map((r) => r.hostUs))),
          String(median(v.rows.map((r) => r.mainUs))),
          String(median(v.rows.map((r) => r.deliveryUs))),
        ]),
      ),
    );
    if (pacedRate > 0) {
      console.log('');
      console.log(
        table(
          [
            'variant',
            `paced ${pacedRate}/s: p99 POST -> 1st per round (ms)`,
            'p50 (median)',
            'p99 (median)',
            'host µs/delivery (median)',
            'main thread',
            'delivery thread',
            'claims / jobs claimed per delivery (median)',
          ],
          variants.map((v) => [
            v.name,
            v.paced.map((r) => r.p99).join(', '),
            String(median(v.paced.map((r) => r.p50))),
            String(median(v.paced.map((r) => r.p99))),
            String(median(v.paced.map((r) => r.hostUs))),
            String(median(v.paced.map((r) => r.mainUs))),
            String(median(v.paced.map((r) => r.deliveryUs))),
            v.paced[0]?.claims === '–'
              ? '–'
              : `${median(v.paced.map((r) => Number(r.claims))).toFixed(3)} / ${median(v.paced.map((r) => Number(r.claimed))).toFixed(3)}`,
          ]),
        ),
      );
    }
  } finally {
    for (const v of variants) {
      await v.poster.close();
      await v.host.stop();
      v.host.budget?.release();
      await rm(v.dataDir, { recursive: true, force: true });
    }
    await receiver.stop();
    await runCleanups(); // drops the PostgreSQL databases
  }
}

afterQuietCheck(main).then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
