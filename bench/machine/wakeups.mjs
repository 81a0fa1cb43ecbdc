// What a thread that sleeps and is woken costs this machine, the unit that a delivery's CPU at moderate
// rates is made of (docs/benchmarks.md, "What a wake-up costs on these machines"). At 1 000 events/s every event wakes the
// host's main thread about twice and its delivery thread once (`bench:rates`); in a burst a wake-up serves
// several events. Four measures, each on fresh Node processes:
//
// - ping-pong: two processes pass one byte back and forth over pipes, each waiting for the other: the round
//   trip's wall time, both processes' CPU per round trip and their wake-ups (voluntary context switches);
// - the same beside two CPU-bound processes at the lowest priority (`nice 19`), which keep every core busy:
//   what waking a thread costs when no core has gone idle in between;
// - a timer every 100 ms and nothing else: the CPU the kernel charges an almost idle thread, per second
//   (`/proc/<pid>/task/<tid>/schedstat`, nanoseconds);
// - what wake-ups take from others: a CPU-bound loop on core 0, alone and beside a process woken by a timer
//   every 1 ms on the same core (`taskset`), in alternating rounds: the iterations the loop loses, in µs of
//   its time per wake-up (the price the machine pays, whatever the accounting says).
//
//   node bench/machine/wakeups.mjs [--seconds=5] [--rounds=3]
//
// A benchmark: it prints, it asserts nothing. Linux only (it reads /proc); the ping-pongs and the last
// measure pin processes to cores with `taskset` (util-linux) and need at least 2 cores: without them they
// are skipped. Only Node.js built-ins: bench/device/pack.sh carries this file alone.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

const option = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const seconds = Number(option('seconds', '5'));
const rounds = Number(option('rounds', '3'));
if (!(seconds > 0)) throw new Error(`--seconds must be a number > 0; got ${option('seconds')}`);
if (!(Number.isInteger(rounds) && rounds > 0)) throw new Error(`--rounds must be a whole number > 0`);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One thread's CPU nanoseconds so far (schedstat's first field) and its voluntary context switches. */
function threadCpu(pid, tid) {
  const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
  return { ns, wakeups: Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0) };
}

/** {@link threadCpu} summed over every thread of `pid`. */
function processCpu(pid) {
  const sum = { ns: 0, wakeups: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const { ns, wakeups } = threadCpu(pid, tid);
      sum.ns += ns;
      sum.wakeups += wakeups;
    } catch {
      // the thread ended meanwhile
    }
  }
  return sum;
}

/** The main thread's {@link threadCpu}. */
const mainThreadCpu = (pid) => threadCpu(pid, pid);

function node(args, { pin } = {}) {
  const argv = [process.execPath, ...args];
  const [cmd, ...rest] = pin === undefined ? argv : ['taskset', '-c', String(pin), ...argv];
  return spawn(cmd, rest, { stdio: ['pipe', 'pipe', 'inherit'] });
}

const ECHO = `process.stdin.on('data', (b) => process.stdout.write(b));`;

/**
 * Round trips of one byte between this process and an echoing child, for `seconds`; `cores` pins this
 * process's main thread and the child to those two cores (the same one twice: both on one core).
 */
async function pingPong(cores) {
  const everyCore = `0-${cpus().length - 1}`;
  execFileSync('taskset', ['-pc', String(cores[0]), String(process.pid)], { stdio: 'ignore' });
  const child = node(['-e', ECHO], { pin: cores[1] });
  await sleep(300);
  let trips = 0;
  let done = false;
  const before = { me: processCpu(process.pid), child: processCpu(child.pid) };
  const started = performance.now();
  await new Promise((resolve) => {
    child.stdout.on('data', () => {
      trips++;
      if (!done && performance.now() - started < seconds * 1000) child.stdin.write('x');
      else if (!done) {
        done = true;
        resolve();
      }
    });
    child.stdin.write('x');
  });
  const elapsed = performance.now() - started;
  const after = { me: processCpu(process.pid), child: processCpu(child.pid) };
  child.kill();
  execFileSync('taskset', ['-pc', everyCore, String(process.pid)], { stdio: 'ignore' });
  const cpuNs = after.me.ns - before.me.ns + (after.child.ns - before.child.ns);
  const wakeups = after.me.wakeups - before.me.wakeups + (after.child.wakeups - before.child.wakeups);
  return {
    tripUs: (elapsed * 1000) / trips,
    cpuUsPerTrip: cpuNs / 1000 / trips,
    wakeupsPerTrip: wakeups / trips,
  };
}

/** A child woken by a timer every 100 ms: its main thread's CPU per second and wake-ups per second. */
async function almostIdle() {
  const child = node(['-e', 'setInterval(() => {}, 100)']);
  await sleep(1000);
  const before = mainThreadCpu(child.pid);
  await sleep(seconds * 1000);
  const after = mainThreadCpu(child.pid);
  child.kill();
  return {
    msPerSecond: (after.ns - before.ns) / 1e6 / seconds,
    wakeupsPerSecond: (after.wakeups - before.wakeups) / seconds,
  };
}

/** Runs `fn` beside one CPU-bound process per core at the lowest priority. */
async function besideBusyCores(fn) {
  const hogs = cpus().map(() =>
    spawn('nice', ['-n', '19', process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  try {
    await sleep(500);
    return await fn();
  } finally {
    for (const hog of hogs) hog.kill('SIGKILL');
  }
}

const SPIN = `const end = performance.now() + ${seconds * 1000}; let n = 0, x = 0;
while (performance.now() < end) { for (let i = 0; i < 10000; i++) x += i; n++; }
process.stdout.write(String(n + (x < 0 ? 1 : 0)));`;

/** Iterations a CPU-bound loop pinned to core 0 makes in `seconds`, beside a ticker on that core or not. */
async function spin(withTicker) {
  const tick = withTicker ? node(['-e', 'setInterval(() => {}, 1)'], { pin: 0 }) : null;
  if (tick) await sleep(500);
  const before = tick ? mainThreadCpu(tick.pid) : null;
  const loop = node(['-e', SPIN], { pin: 0 });
  let out = '';
  loop.stdout.on('data', (b) => {
    out += b;
  });
  await new Promise((resolve) => loop.once('exit', resolve));
  const after = tick ? mainThreadCpu(tick.pid) : null;
  tick?.kill();
  return { iterations: Number(out), wakeups: tick ? after.wakeups - before.wakeups : 0 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const f = (n, digits = 0) => n.toFixed(digits);

console.log(`machine: ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown'}; Node ${process.version}`);
console.log(`kernel command line mentions: ${kernelHints()}`);

const printTrips = (label, trips) =>
  console.log(
    `${label}: round trip ${f(median(trips.map((t) => t.tripUs)))} µs, ` +
      `CPU ${f(median(trips.map((t) => t.cpuUsPerTrip)))} µs per round trip (both processes), ` +
      `${f(median(trips.map((t) => t.wakeupsPerTrip)), 2)} wake-ups per round trip`,
  );
const canPin = cpus().length >= 2 && hasTaskset();
if (!canPin)
  console.log('ping-pong and what a ticker takes from others: skipped (needs taskset and 2 cores)');
else {
  for (const [label, cores, busy] of [
    ['ping-pong over pipes, both on core 0', [0, 0], false],
    ['ping-pong over pipes, cores 0 and 1, otherwise idle', [0, 1], false],
    ['ping-pong over pipes, cores 0 and 1, both kept busy at nice 19', [0, 1], true],
  ]) {
    const trips = [];
    for (let r = 0; r < rounds; r++)
      trips.push(busy ? await besideBusyCores(() => pingPong(cores)) : await pingPong(cores));
    printTrips(label, trips);
  }
}

const idle = [];
for (let r = 0; r < rounds; r++) idle.push(await almostIdle());
console.log(
  `a timer every 100 ms, nothing else: ${f(median(idle.map((i) => i.msPerSecond)), 1)} ms of CPU charged a second ` +
    `for ${f(median(idle.map((i) => i.wakeupsPerSecond)))} wake-ups`,
);

if (canPin) {
  const costs = [];
  for (let r = 0; r < rounds; r++) {
    const alone = await spin(false);
    const beside = await spin(true);
    // The loop's time per iteration alone; what it lost beside the ticker, per ticker wake-up.
    const usPerIteration = (seconds * 1e6) / alone.iterations;
    const lostUs = (alone.iterations - beside.iterations) * usPerIteration;
    costs.push({
      lostUsPerWakeup: lostUs / Math.max(1, beside.wakeups),
      share: 1 - beside.iterations / alone.iterations,
    });
  }
  console.log(
    `a 1 ms ticker beside a CPU-bound loop on one core: the loop loses ${f(100 * median(costs.map((c) => c.share)), 1)} % ` +
      `(rounds ${costs.map((c) => f(100 * c.share, 1)).join(', ')}), ${f(median(costs.map((c) => c.lostUsPerWakeup)))} µs per wake-up`,
  );
}

function kernelHints() {
  try {
    const line = readFileSync('/proc/cmdline', 'utf8');
    const hints = ['nested_pvm', 'firecracker', 'haltpoll', 'nohz'].filter((h) => line.includes(h));
    return hints.length > 0 ? hints.join(', ') : 'none of nested_pvm, firecracker, haltpoll, nohz';
  } catch {
    return 'unknown (no /proc/cmdline)';
  }
}

function hasTaskset() {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
