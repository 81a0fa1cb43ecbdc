// Command-line options of `npm run bench:delivery` (run.mjs; the list with explanations is at its top and
// in docs/benchmarks.md, "How to run"). A wrong option ends the run with a message saying what to give.
import { DEFAULT_DATABASE_URL } from './backend.mjs';

const KNOWN = [
  '--quick',
  '--profile',
  '--host-profile',
  '--kill-one',
  '--compare',
  '--no-bullmq',
  '--host-node-args=',
  '--thread=',
  '--host=',
  '--sqlite-sync=',
  '--event-ids=',
  '--backend=',
  '--hosts=',
  '--database-url=',
  '--paced-rate=',
  '--rounds=',
  '--warmup=',
];

function fail(problem) {
  console.error(`bench:delivery: ${problem}`);
  console.error(
    'see the top of bench/delivery/run.mjs or docs/benchmarks.md ("How to run") for the options.',
  );
  process.exit(2);
}

function wholeNumber(name, raw, min, max) {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    fail(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  return n;
}

/** Parses `argv` (process.argv.slice(2)) into the benchmark's options; exits with code 2 on a bad one. */
export function parseOptions(argv) {
  for (const a of argv) {
    if (!KNOWN.some((k) => (k.endsWith('=') ? a.startsWith(k) : a === k))) fail(`unknown option "${a}".`);
  }
  const flag = (name) => argv.includes(name);
  const value = (name) => argv.findLast((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
  const quick = flag('--quick');
  const backend = flag('--compare') ? 'both' : (value('--backend') ?? 'sqlite');
  if (!['sqlite', 'pg', 'both'].includes(backend))
    fail(`--backend must be "sqlite", "pg" or "both" (= --compare); got "${backend}".`);
  const hosts = wholeNumber('--hosts', value('--hosts') ?? '1', 1, 3);
  if (hosts > 1 && backend === 'sqlite')
    fail('--hosts above 1 needs PostgreSQL: add --backend=pg (or --backend=both).');
  const hostMode = value('--host') ?? 'process';
  if (hostMode !== 'process' && hostMode !== 'inprocess')
    fail(`--host must be "process" or "inprocess"; got "${hostMode}".`);
  if (hostMode === 'inprocess' && (hosts > 1 || backend === 'both'))
    fail(
      '--host=inprocess runs one host of one backend: drop --hosts / --backend=both, or use --host=process.',
    );
  const killOne = flag('--kill-one');
  if (killOne && hosts < 2) fail('--kill-one kills one of several hosts: add --backend=pg --hosts=2.');
  const eventIds = value('--event-ids') ?? 'random';
  if (eventIds !== 'random' && eventIds !== 'sortable')
    fail(`--event-ids must be "random" or "sortable"; got "${eventIds}".`);
  const threadArg = value('--thread') ?? process.env.PLATFORM_DELIVERY_THREAD;
  if (threadArg !== undefined && threadArg !== '0' && threadArg !== '1')
    fail(`--thread must be 0 or 1; got "${threadArg}".`);
  return {
    quick,
    profile: flag('--profile'),
    hostProfile: flag('--host-profile'),
    hostNodeArgs: (value('--host-node-args') ?? '').split(' ').filter(Boolean),
    deliveryThread: threadArg,
    hostMode,
    sqliteSync: value('--sqlite-sync'),
    eventIds,
    backend,
    hosts,
    databaseUrl: value('--database-url') ?? process.env.BENCH_DATABASE_URL ?? DEFAULT_DATABASE_URL,
    killOne,
    bullmq: !flag('--no-bullmq'),
    pacedRate: wholeNumber('--paced-rate', value('--paced-rate') ?? '1000', 1, 100_000),
    rounds: wholeNumber('--rounds', value('--rounds') ?? (quick ? '1' : '3'), 1, 20),
    warmup: value('--warmup') === undefined ? null : wholeNumber('--warmup', value('--warmup'), 0, 200_000),
  };
}

/** The fixed counts and durations of a run (smaller with `--quick`). */
export function params(options) {
  const { quick } = options;
  return {
    concurrency: 64, // raw requests in flight, and the host's PLATFORM_DELIVERY_CONCURRENCY
    rawCount: quick ? 600 : 6000,
    burstCount: quick ? 600 : 6000,
    postConcurrency: 32, // POST /v1/events in flight (client side, bounded)
    // Events before the first measured round, per backend (and raw POSTs before the first raw round). A host's
    // CPU per delivery keeps falling over its first ≈ 15 000 events (V8 optimizing far more code than the
    // raw client's), so with 2 000 the first rounds measured a host not yet settled (docs/benchmarks.md,
    // "Warm-up"). `--warmup=N` overrides it.
    warmup: options.warmup ?? (quick ? 100 : 20_000),
    pacedSeconds: quick ? 3 : 10,
    fixedRate: options.pacedRate, // the fixed-rate paced phase (the "1,000 events/s")
    fixedSeconds: quick ? 3 : 10,
    retrySeconds: quick ? 2 : 5,
    lightSeconds: quick ? 2 : 5,
    failRate: 0.1,
    // Waiting for every event of a 10 %-500 phase to settle (a 200 or 4 attempts): the longest retry
    // series takes ≈ 8 s after attempt 1; a host that loses track of a retry sends it again only after
    // the lease (15 s), so the full run waits long enough for four such rounds. What has not settled by
    // then is reported as pending.
    settleMs: quick ? 25_000 : 70_000,
    // The kill -9 phase: events in all, rate (the host is killed once half are sent).
    killCount: quick ? 1000 : 5000,
    killRate: quick ? 500 : 1000,
    // (a) and (b) are measured in alternating rounds (raw, burst, raw, burst, ...); the ratio reported is the
    // median round's: the machine's speed drifts by tens of percent within minutes.
    rounds: options.rounds,
  };
}
