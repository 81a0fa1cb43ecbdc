// `npm run bench:rate-limit`: the per-endpoint rate limit (docs/contracts.md "Endpoint settings",
// `rate_limit`) measured on a running host: does a limited endpoint get its rate, and is another endpoint's
// throughput unchanged beside it? A benchmark: it reports, it does not assert (the e2e test
// packages/host/test/webhook-rate-limit.e2e.test.ts asserts generous bounds).
// Bounded: fixed counts and durations, a watchdog, traffic to 127.0.0.1 only. Figures: docs/benchmarks.md.
//
// Phases, each on a fresh pair of installations of one host process (spawned as `npm start` does):
//   1. baseline: endpoint B alone, events posted at --free-rate/s for --seconds;
//   2. beside a limited one: the same for B, plus endpoint A with rate_limit = --limit, posted --over times
//      faster than its limit for the same time; A's backlog is then drained to the last event.
// Reported: A's delivery rate (deliveries over the span from its first to its last), its ratio to the
// limit, the busiest second; B's throughput and its delivery latency (p50, p99) in both phases.
// Options: --backend=sqlite (default) | pg (a fresh database through --database-url=, dropped at the end),
// --limit=50, --over=2, --free-rate=300, --seconds=6.

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchHostEnv, createBenchDatabase, DEFAULT_DATABASE_URL } from './backend.mjs';
import { installWatchdog, onCleanup, runCleanups } from './cleanup.mjs';
import { spawnHost } from './host-process.mjs';
import { ADMIN_TOKEN, hostApi, machine, percentile, sleep } from './lib.mjs';

const arg = (name, fallback) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? found.slice(name.length + 3) : fallback;
};
const O = {
  backend: arg('backend', 'sqlite'),
  limit: Number(arg('limit', '50')),
  over: Number(arg('over', '2')),
  freeRate: Number(arg('free-rate', '300')),
  seconds: Number(arg('seconds', '6')),
  databaseUrl: arg('database-url', process.env.BENCH_DATABASE_URL ?? DEFAULT_DATABASE_URL),
};

/** A receiver on 127.0.0.1 that answers 200 at once and notes when each revision arrived. */
async function receiver() {
  const arrivals = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const { revisionId } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (!arrivals.has(revisionId)) arrivals.set(revisionId, at);
      res.writeHead(200).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise((resolve) => server.close(resolve)));
  server.keepAliveTimeout = 30_000;
  return { url: `http://127.0.0.1:${server.address().port}/hook`, arrivals };
}

async function install(host, space, url, extra = {}) {
  const inst = await hostApi(host.url, 'POST', '/v1/installations', {
    integration: 'webhook',
    space,
    configuration: { url, space_content_updated: true, ...extra },
  });
  if (inst.status !== 'active') throw new Error(`installation is ${inst.status}`);
  return inst.id;
}

/** Posts `rate` events/s to `space` for `seconds`; returns revisionId -> posted at. */
async function postPaced(host, space, rate, seconds, tag) {
  const posted = new Map();
  const total = Math.round(rate * seconds);
  const started = Date.now();
  const inFlight = new Set();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    const revisionId = `${tag}-${i}`;
    posted.set(revisionId, Date.now());
    const p = fetch(`${host.url}/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'space_content_updated', spaceId: space, revisionId }),
    })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 202) throw new Error(`POST /v1/events: HTTP ${res.status}`);
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    if (inFlight.size >= 64) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  return posted;
}

async function waitAll(rx, count, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (rx.arrivals.size < count && Date.now() < deadline) await sleep(50);
  return rx.arrivals.size >= count;
}

/** Throughput and latency of a free endpoint over one phase. */
function freeFigures(posted, rx) {
  const latencies = [...posted]
    .map(([id, at]) => (rx.arrivals.get(id) ?? Number.NaN) - at)
    .filter(Number.isFinite);
  const times = [...rx.arrivals.values()].sort((a, b) => a - b);
  const span = (times.at(-1) - times[0]) / 1000;
  return {
    delivered: rx.arrivals.size,
    posted: posted.size,
    perSecond: Math.round(((times.length - 1) / span) * 10) / 10,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

function busiestSecond(times) {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

async function main() {
  installWatchdog('bench:rate-limit', 180);
  const env = benchHostEnv({});
  let host;
  if (O.backend === 'pg') {
    const db = await createBenchDatabase(O.databaseUrl);
    host = await spawnHost({ ...env, DATABASE_URL: db.url });
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'platform-bench-rate-'));
    onCleanup(() => rm(dir, { recursive: true, force: true }));
    host = await spawnHost({ ...env, PLATFORM_DATA_DIR: dir });
  }
  onCleanup(() => host.stop());

  // 1. Baseline: B alone.
  const b1 = await receiver();
  await install(host, 'bench-free-1', b1.url);
  const posted1 = await postPaced(host, 'bench-free-1', O.freeRate, O.seconds, 'b1');
  await waitAll(b1, posted1.size, 30_000);
  const baseline = freeFigures(posted1, b1);

  // 2. B beside A (limited, posted `over` times faster than its limit).
  const a = await receiver();
  const b2 = await receiver();
  await install(host, 'bench-limited', a.url, { rate_limit: O.limit });
  await install(host, 'bench-free-2', b2.url);
  const [postedB, postedA] = await Promise.all([
    postPaced(host, 'bench-free-2', O.freeRate, O.seconds, 'b2'),
    postPaced(host, 'bench-limited', O.limit * O.over, O.seconds, 'a'),
  ]);
  await waitAll(b2, postedB.size, 30_000);
  const beside = freeFigures(postedB, b2);
  const drainMs = (postedA.size / O.limit) * 1000 + 30_000;
  await waitAll(a, postedA.size, drainMs);
  const times = [...a.arrivals.values()].sort((x, y) => x - y);
  const rate = (times.length - 1) / ((times.at(-1) - times[0]) / 1000);

  const m = machine();
  console.log(
    `bench:rate-limit (${O.backend}) on ${m.nproc}x ${m.cpuModel}, Node ${m.node}, load ${m.loadAverage.join(' ')}`,
  );
  console.log(`limited endpoint A: rate_limit ${O.limit}/s, posted ${postedA.size} at ${O.limit * O.over}/s`);
  console.log(
    `  delivered ${a.arrivals.size}/${postedA.size}, rate ${rate.toFixed(2)}/s (${((rate / O.limit) * 100).toFixed(1)} % of the limit), busiest second ${busiestSecond(times)}`,
  );
  console.log(`free endpoint B: posted at ${O.freeRate}/s for ${O.seconds} s`);
  console.log(
    `  alone:      delivered ${baseline.delivered}/${baseline.posted}, ${baseline.perSecond}/s, latency p50 ${baseline.p50} ms, p99 ${baseline.p99} ms`,
  );
  console.log(
    `  beside A:   delivered ${beside.delivered}/${beside.posted}, ${beside.perSecond}/s, latency p50 ${beside.p50} ms, p99 ${beside.p99} ms`,
  );
  console.log(`  throughput beside A / alone: ${(beside.perSecond / baseline.perSecond).toFixed(3)}`);
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => runCleanups());
