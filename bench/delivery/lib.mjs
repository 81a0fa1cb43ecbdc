// Helpers of the delivery benchmark: the receiver child process, statistics, machine load sampling.
import { fork } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const now = () => performance.timeOrigin + performance.now();

/** The operator token every benchmark host is started with. */
export const ADMIN_TOKEN = 'pat_bench_operator_token_0123456789';

/**
 * One call to a host's API with `token`, `body` (when given) sent as JSON: `{ ok, status, body }`,
 * the answer's body parsed as JSON when it is JSON (its text otherwise, `null` when empty).
 *
 * @example
 * const { status, body } = await callHost(url, token, 'POST', '/v1/installations', { integration: 'x' });
 */
export async function callHost(hostUrl, token, method, path, body) {
  const init = { method, headers: { authorization: `Bearer ${token}` } };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(`${hostUrl}${path}`, init);
  const text = await response.text();
  let parsed = text || null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: the text
  }
  return { ok: response.ok, status: response.status, body: parsed };
}

/** A JSON call to a benchmark host's API as the operator; throws with the answer on a non-2xx status. */
export async function hostApi(hostUrl, method, path, body) {
  const answer = await callHost(hostUrl, ADMIN_TOKEN, method, path, body);
  if (!answer.ok) throw new Error(`${method} ${path}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/**
 * Installs the webhook integration on the benchmark space, delivering to `receiverUrl` (with `settings`
 * added to its configuration, e.g. `{ signature_scheme: 'ed25519' }`); returns the installation's id,
 * signing secret and, for ed25519, its public key.
 */
export async function installWebhook(hostUrl, receiverUrl, settings = {}) {
  const installation = await hostApi(hostUrl, 'POST', '/v1/installations', {
    integration: 'webhook',
    space: 'bench-space',
    configuration: { url: receiverUrl, space_content_updated: true, ...settings },
  });
  if (installation.status !== 'active') throw new Error(`installation is ${installation.status}`);
  const { secret } = await hostApi(hostUrl, 'GET', `/v1/installations/${installation.id}/webhook-secret`);
  const publicKey =
    settings.signature_scheme === 'ed25519'
      ? (await hostApi(hostUrl, 'GET', `/v1/installations/${installation.id}/webhook-public-key`)).publicKey
      : undefined;
  return { installationId: installation.id, secret, publicKey };
}
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Spawns bench/delivery/receiver.mjs with `node` and an IPC channel.
 * @returns {Promise<{url: string, configure(o: {secrets: string[], publicKey?: string, failRate: number}): void, reset(): void,
 *   count(): Promise<{ok: number, settled: number, requests: number}>, dump(): Promise<{records: unknown[][], cpu: NodeJS.CpuUsage}>,
 *   waitFor(count: number, timeoutMs: number, key?: 'ok' | 'settled'): Promise<boolean>, stop(): Promise<void>}>}
 */
export async function startReceiver({ processes = 1 } = {}) {
  const child = fork(fileURLToPath(new URL('./receiver.mjs', import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, RECEIVER_PROCESSES: String(processes) },
  });
  let nextId = 1;
  const pending = new Map();
  let onReady;
  const ready = new Promise((resolve, reject) => {
    onReady = resolve;
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`receiver exited early (code ${code})`)));
  });
  child.on('message', (message) => {
    if (message.type === 'ready') onReady(message.port);
    else if (pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    }
  });
  const ask = (type) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.send({ type, id });
    });
  const port = await ready;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    processes,
    configure: ({ secrets, publicKey, failRate, delayMs = 0 }) =>
      child.send({ type: 'configure', secrets, publicKey, failRate, delayMs }),
    reset: () => child.send({ type: 'reset' }),
    count: () => ask('count'),
    dump: () => ask('dump'),
    /** Polls until `count` distinct events are `ok` (verified 200) or `settled`; false on timeout. */
    async waitFor(count, timeoutMs, key = 'ok') {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if ((await ask('count'))[key] >= count) return true;
        await sleep(25);
      }
      return false;
    },
    /**
     * Polls until every one of `eventIds` is `ok` or `settled` (events of earlier phases that arrive late
     * do not count); false on timeout.
     */
    async waitForEvents(eventIds, timeoutMs, key = 'ok') {
      child.send({ type: 'watch', ids: eventIds });
      const field = key === 'ok' ? 'watchedOk' : 'watchedSettled';
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if ((await ask('count'))[field] >= eventIds.length) return true;
        await sleep(25);
      }
      return false;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.send({ type: 'stop' });
      }),
  };
}

/** Nearest-rank percentile of numbers (p in 0..100); null when empty. */
export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

/** Highest number of timestamps (ms) inside any 1-second window, i.e. the peak rate per second. */
export function peakPerSecond(timestamps) {
  const sorted = [...timestamps].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end] - sorted[start] >= 1000) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

/** Record fields, as receiver.mjs stores them. */
export const R = { eventId: 0, deliveryId: 1, attempt: 2, arrivedAt: 3, answeredAt: 4, status: 5, bytes: 6 };

/** Per event: first attempt-1 arrival and the time of its first verified 200. */
export function byEvent(records) {
  const events = new Map();
  for (const r of records) {
    const id = r[R.eventId];
    if (!id) continue;
    let e = events.get(id);
    if (!e) {
      e = { firstArrival: Number.POSITIVE_INFINITY, okAt: null, oks: 0, attempts: 0 };
      events.set(id, e);
    }
    e.attempts++;
    if (r[R.attempt] === 1) e.firstArrival = Math.min(e.firstArrival, r[R.arrivedAt]);
    if (r[R.status] === 200) {
      e.oks++;
      e.okAt = e.okAt === null ? r[R.answeredAt] : Math.min(e.okAt, r[R.answeredAt]);
    }
  }
  return events;
}

/** Machine-wide CPU (from /proc/stat) and this process's CPU, to tell how busy the machine was. */
export function cpuSampler() {
  const read = () => {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = fields[3] + (fields[4] ?? 0);
    const total = fields.reduce((a, b) => a + b, 0);
    return { idle, total };
  };
  const start = {
    stat: read(),
    self: process.cpuUsage(),
    at: now(),
    elu: performance.eventLoopUtilization(),
  };
  return {
    /** Cores busy machine-wide and in this process over the interval, and this process's event-loop use. */
    stop() {
      const stat = read();
      const seconds = (now() - start.at) / 1000;
      const total = stat.total - start.stat.total;
      const busy = total - (stat.idle - start.stat.idle);
      const self = process.cpuUsage(start.self);
      return {
        seconds,
        machineBusyCores: total > 0 ? (busy / total) * cpus().length : null,
        benchProcessCores: (self.user + self.system) / 1e6 / seconds,
        eventLoopUtilization: performance.eventLoopUtilization(start.elu).utilization,
      };
    },
  };
}

export function machine() {
  return {
    nproc: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    kernel: release(),
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

const fmt = (value, digits = 1) =>
  value === null || value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits);

export { fmt };

/**
 * The cells of one row of a load table: each of `fields` of a phase's `load` (seconds, cores busy,
 * event-loop use) with two decimals.
 *
 * @example
 * loadCells(r.burst.load, ['seconds', 'machineBusyCores']); // ['12.31', '3.07']
 */
export function loadCells(load, fields) {
  return fields.map((field) => fmt(load[field], 2));
}

/**
 * The cores busy on the machine outside the processes named by `fields` of `load` (never below 0),
 * with two decimals: the "others (≈)" column of a load table.
 *
 * @example
 * othersCell(load, ['benchProcessCores', 'receiverProcessCores']); // '0.42'
 */
export function othersCell(load, fields) {
  return fmt(
    Math.max(
      0,
      fields.reduce((rest, field) => rest - load[field], load.machineBusyCores),
    ),
    2,
  );
}

/** A plain aligned text table. */
export function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** A V8 CPU profile of this process, written to `file` on stop (open it in Chrome DevTools). */
export async function startProfiler() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      writeFileSync(file, JSON.stringify(profile));
      return file;
    },
  };
}

/** Writes `results` to bench/results/delivery-<time>-<name>[-quick].json and says where. */
export function writeResults(results, name) {
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const stamp = results.date.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  const file = join(dir, `delivery-${stamp}-${name}${results.quick ? '-quick' : ''}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nresults written to ${file}`);
}
