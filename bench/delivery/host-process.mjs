// The host under test, either as its own process (`--host=process`, default: `node [npm start's options]
// packages/host/dist/main.js`, as operators run it with `npm start`) or started inside the benchmark process (`--host=inprocess`,
// `startHost`, the load generator then shares the host's main thread). Both return the same shape.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { now, sleep } from './lib.mjs';

const MAIN = fileURLToPath(new URL('../../packages/host/dist/main.js', import.meta.url));
const HOST_BUILDS = fileURLToPath(new URL('../../packages/host/dist/', import.meta.url));

/**
 * The `node` options of `npm start` (the root package.json's `start`: `exec node [OPTIONS] packages/host/dist/main.js`),
 * which every host build the benchmark spawns gets first, so that it runs the host as operators do (the
 * young generation's floor, packages/host/src/delivery/host/young-generation.ts). A variant's own options
 * come after them and win (`--min-semi-space-size=0`: V8's default sizing).
 */
export function npmStartNodeArgs() {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const match = /^exec node((?: --\S+)*) packages\/host\/dist\/main\.js$/.exec(pkg.scripts.start);
  if (!match)
    throw new Error(
      `package.json's start script is not "exec node [OPTIONS] packages/host/dist/main.js": ${pkg.scripts.start}`,
    );
  return match[1].split(' ').filter(Boolean);
}
let clockTicks = null;

/** User and system CPU seconds from a /proc `stat` file. */
function statCpu(path) {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const text = readFileSync(path, 'utf8');
  // Field 2 (comm) is in parentheses and may contain spaces: split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
  return { user: Number(fields[11]) / clockTicks, system: Number(fields[12]) / clockTicks };
}

/** CPU seconds (user + system) of a process, or of one of its threads, from /proc/<pid>[/task/<tid>]/stat. */
export function procCpuSeconds(pid, tid) {
  const { user, system } = statCpu(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`);
  return user + system;
}

/** Per-thread CPU seconds of a process, keyed `tid:comm` (the main thread's tid is the pid). */
export function procThreadsCpu(pid) {
  const out = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      out[`${tid}:${comm}`] = procCpuSeconds(pid, tid);
    } catch {
      // the thread ended between readdir and read
    }
  }
  return out;
}

/**
 * Per thread of a process, keyed by tid (the main thread's is the pid): user and system CPU seconds, and
 * context switches so far, `voluntary` (the thread went to sleep, on a socket, a timer, a lock or a disk,
 * and was woken: a wake-up) and `involuntary` (preempted), from /proc/<pid>/task/<tid>/{stat,status}.
 */
export function procThreadStats(pid) {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const cpu = statCpu(`/proc/${pid}/task/${tid}/stat`);
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
      const switches = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
      out.set(tid, {
        ...cpu,
        voluntary: switches('voluntary_ctxt_switches'),
        involuntary: switches('nonvoluntary_ctxt_switches'),
      });
    } catch {
      // the thread ended between readdir and read
    }
  }
  return out;
}

/**
 * Wake-ups of a process so far: its threads' voluntary context switches ({@link procThreadStats}), split by
 * thread: `main` (the tid that is the pid), `delivery` (the thread that has used the most CPU after the main
 * one: the host's delivery thread once it has delivered anything) and `other` (V8's helpers, libuv's pool,
 * the rest), and their `total`. Threads that ended are not counted; the host's threads live as long as it
 * does.
 *
 * @example
 * const { main, delivery, other, total } = procWakeups(host.pid);
 */
export function procWakeups(pid) {
  const threads = [...procThreadStats(pid)];
  const main = threads.find(([tid]) => tid === String(pid))?.[1];
  const rest = threads.filter(([tid]) => tid !== String(pid)).map(([, t]) => t);
  rest.sort((a, b) => b.user + b.system - (a.user + a.system));
  const [delivery, ...others] = rest;
  const m = main?.voluntary ?? 0;
  const d = delivery?.voluntary ?? 0;
  const other = others.reduce((s, t) => s + t.voluntary, 0);
  return { main: m, delivery: d, other, total: m + d + other };
}

/** A free TCP port on 127.0.0.1 (listen on 0, read it, close: the host binds it right after). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Spawns the built host as `npm start` does (`node [its options] packages/host/dist/main.js`) and waits for
 * `GET /healthz` 200. `env` is added to a minimal environment (PATH, HOME); `nodeArgs` go to `node` before
 * the script, after `npm start`'s options when the script is a host build under packages/host/dist/ (e.g.
 * `--cpu-prof`); `script` (default `$BENCH_HOST_MAIN`, set by `scale-out.mjs --rev=`, else the host's main) may be another server with `GET /healthz` (the
 * stateless relay, BullMQ's worker: they get `nodeArgs` alone); `logFile`, when given, receives the process's stdout and stderr (its JSON log; see
 * `summarizeLog`), else stdout is dropped and stderr inherited. `stop()` sends SIGTERM and waits for exit.
 */
export async function spawnHost(
  env,
  nodeArgs = [],
  script = process.env.BENCH_HOST_MAIN || MAIN,
  logFile = null,
) {
  const port = await freePort();
  const started = now();
  const logFd = logFile ? openSync(logFile, 'a') : null;
  const hostArgs = resolve(script).startsWith(HOST_BUILDS) ? npmStartNodeArgs() : [];
  const child = spawn(process.execPath, [...hostArgs, ...nodeArgs, script], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: logFd === null ? ['ignore', 'ignore', 'inherit'] : ['ignore', logFd, logFd],
  });
  if (logFd !== null) closeSync(logFd); // the child holds its own copy
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(
        `host process exited during start-up (code ${child.exitCode})${logFile ? `; its log: ${logFile}` : ''}`,
      );
    try {
      const res = await fetch(`${url}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('host process: GET /healthz not 200 within 20 s');
    }
    await sleep(25);
  }
  const pid = child.pid;
  // Never outlive the benchmark (watchdog exit, crash): kill the child on our exit.
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  return {
    url,
    pid,
    startupMs: Math.round(now() - started),
    /** CPU seconds of the whole host process and of its main thread. */
    cpu: () => ({ process: procCpuSeconds(pid), main: procCpuSeconds(pid, pid) }),
    threads: () => procThreadsCpu(pid),
    /** Wake-ups so far (its threads' voluntary context switches), by thread and in all ({@link procWakeups}). */
    wakeups: () => procWakeups(pid),
    /** kill -9 (no shutdown at all: leased deliveries stay leased until their lease ends); waits for exit. */
    async kill() {
      process.off('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      return exited;
    },
    async stop() {
      process.off('exit', onExit);
      if (child.exitCode !== null || child.signalCode !== null)
        return { code: child.exitCode, signal: child.signalCode, stopMs: 0 };
      const t = now();
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const result = await exited;
      clearTimeout(timer);
      return { ...result, stopMs: Math.round(now() - t) };
    },
  };
}

/** The old mode: `startHost` inside this process (the load generator shares its main thread). */
export async function inProcessHost(env) {
  const { loadConfig, startHost } = await import('@platform/host');
  const started = now();
  const host = await startHost(loadConfig({ ...env, PORT: '0', LOG_LEVEL: 'silent' }));
  return {
    url: host.url,
    pid: process.pid,
    startupMs: Math.round(now() - started),
    cpu: null, // the host's CPU is this process's
    threads: () => procThreadsCpu(process.pid),
    async stop() {
      const t = now();
      await host.stop();
      return { code: 0, stopMs: Math.round(now() - t) };
    },
  };
}

/**
 * What a host's log file says, for the report: line count per level and the most frequent messages of
 * warn level and above (with the error's message, where the line has one), most frequent first.
 */
export function summarizeLog(file, top = 5) {
  if (!file || !existsSync(file)) return null;
  const levels = {};
  const messages = new Map();
  const names = { 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
  let lines = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    lines++;
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      // Plain text: the start-up banner, or a crash's stack trace (listed when it looks like an error).
      entry = {
        level: /error|fail|exception|fatal/i.test(line) ? 50 : 'text',
        msg: line.trim().slice(0, 200),
      };
    }
    const level = names[entry.level] ?? String(entry.level ?? '?');
    levels[level] = (levels[level] ?? 0) + 1;
    if (!(entry.level >= 40)) continue;
    const detail = entry.err?.message ?? entry.error?.message ?? entry.error ?? '';
    const message = `${level}: ${entry.msg ?? ''}${detail ? ` — ${String(detail).slice(0, 160)}` : ''}`;
    // Grouped with the numbers and ids masked (each line has its own); the first one is kept as example.
    const key = message.replace(/[0-9][0-9a-zA-Z._-]*/g, '#');
    const seen = messages.get(key);
    if (seen) seen.count++;
    else messages.set(key, { count: 1, message });
  }
  const frequent = [...messages.values()].sort((a, b) => b.count - a.count).slice(0, top);
  return { file, lines, levels, frequent };
}
