// `npm run bench:delivery:ab -- --variant=NAME:SETTINGS ...`: compares host builds or settings on the burst
// of `bench:delivery` (b), in ONE run, alternating rounds. This machine's speed drifts by tens of percent
// within minutes, so two builds measured in two runs cannot be compared; here every round measures a raw
// ceiling (a) and then one burst per variant, in rotating order, against the same receiver.
//
// A variant is `NAME:SETTINGS`, SETTINGS a comma-separated list of `KEY=VALUE`: environment variables of the
// host (`PLATFORM_SQLITE_SYNC=normal`), or `main=PATH` for another build of the host (a copy of
// packages/host/dist kept inside the repository, e.g. packages/host/dist-old/main.js, so that it resolves
// the same node_modules), or `post=N`: the burst's POST /v1/events in flight (default 32), or `scheme=NAME`:
// the installation's signature_scheme (`ed25519`, `standard-webhooks`; default the host's, platform). `--rounds=N` (default 4), `--events=N` per burst (default 6000),
// `--event-ids=sortable` (default random). A benchmark: it prints, it asserts nothing; 127.0.0.1 only.
//
//   npm run build && node bench/delivery/ab.mjs --variant=full:PLATFORM_SQLITE_SYNC=full \
//     --variant=normal:PLATFORM_SQLITE_SYNC=normal
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { analyzeHost, analyzeRaw } from './analyze.mjs';
import { spawnHost } from './host-process.mjs';
import { ADMIN_TOKEN, installWebhook, percentile, startReceiver, table } from './lib.mjs';
import { eventPoster, rawPosts } from './load.mjs';

const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const rounds = Number(arg('rounds', '4'));
const events = Number(arg('events', '6000'));
const sortableIds = arg('event-ids', 'random') === 'sortable';

function usage(problem) {
  console.error(`bench:delivery:ab: ${problem}`);
  console.error(
    'usage: node bench/delivery/ab.mjs --variant=NAME:KEY=VALUE[,KEY=VALUE...] --variant=... [--rounds=4] [--events=6000] [--event-ids=random|sortable]',
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
  let post = 32;
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
    else if (key === 'post') post = Number(value);
    else if (key === 'scheme') settings.signature_scheme = value;
    else env[key] = value;
  }
  if (!(Number.isInteger(post) && post > 0)) usage(`post must be a whole number > 0 in variant "${name}"`);
  return { name, env, main, post, settings };
}

const specs = process.argv.filter((a) => a.startsWith('--variant=')).map((a) => a.slice('--variant='.length));
if (specs.length < 2) usage('give at least two --variant options');
if (!(Number.isInteger(rounds) && rounds > 0)) usage('--rounds must be a whole number > 0');
if (!(Number.isInteger(events) && events > 0)) usage('--events must be a whole number > 0');

const watchdog = setTimeout(() => {
  console.error('bench:delivery:ab: still running after 10 minutes; giving up.');
  process.exit(2);
}, 600_000);
watchdog.unref();

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
      const env = {
        PLATFORM_DATA_DIR: dataDir,
        PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
        PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
        PLATFORM_DELIVERY_CONCURRENCY: '64',
        LOG_LEVEL: 'warn',
        ...variant.env,
      };
      const host = await spawnHost(env, [], ...(variant.main ? [variant.main] : []));
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
      variants.push({ ...variant, dataDir, host, installationId, secret, publicKey, poster, rows: [] });
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
    }
    const median = (values) => percentile(values, 50);
    console.log('');
    console.log(
      table(
        [
          'variant',
          '(b)/(a) per round',
          'median',
          'host µs/delivery (median)',
          'main thread',
          'delivery thread',
        ],
        variants.map((v) => [
          v.name,
          v.rows.map((r) => r.ratio.toFixed(2)).join(', '),
          median(v.rows.map((r) => r.ratio)).toFixed(2),
          String(median(v.rows.map((r) => r.hostUs))),
          String(median(v.rows.map((r) => r.mainUs))),
          String(median(v.rows.map((r) => r.deliveryUs))),
        ]),
      ),
    );
  } finally {
    for (const v of variants) {
      await v.poster.close();
      await v.host.stop();
      await rm(v.dataDir, { recursive: true, force: true });
    }
    await receiver.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
