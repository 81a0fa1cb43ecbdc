// The measured phases of the delivery benchmark, for one backend (backend.mjs: one or more hosts on one
// storage). Each returns the analysed figures and the load of the machine and of every host process.
import { analyzeHost, analyzeHostGaps, analyzeKill, analyzeRaw, analyzeRetries } from './analyze.mjs';
import { leaseMsOf } from './backend.mjs';
import { cpuSampler, hostApi, now, R } from './lib.mjs';
import { rawPosts } from './load.mjs';

const round2 = (x) => Math.round(x * 100) / 100;

/** A host's CPU counters, or null when its process is gone (killed during the phase). */
function readCpu(host) {
  if (!host.cpu) return null;
  try {
    return { ...host.cpu(), threads: host.threads() };
  } catch {
    return null;
  }
}

/** One host's cores over `seconds` between two readings (process, main thread, its other threads). */
function hostLoad(host, before, after, seconds) {
  if (!before || !after) return null;
  // Threads are all named "node": the busiest one besides the main thread is the delivery worker
  // thread when PLATFORM_DELIVERY_THREAD=1 (else a libuv or GC helper).
  const others = Object.keys(after.threads)
    .filter((k) => !k.startsWith(`${host.pid}:`))
    .map((k) => (after.threads[k] - (before.threads[k] ?? 0)) / seconds);
  return {
    processCores: round2((after.process - before.process) / seconds),
    mainThreadCores: round2((after.main - before.main) / seconds),
    busiestOtherThreadCores: round2(Math.max(0, ...others)),
    otherThreadsCores: others
      .filter((cores) => cores >= 0.005)
      .sort((a, b) => b - a)
      .map(round2),
  };
}

/**
 * Runs `fn` between a receiver reset and a dump; returns its result, the records and load figures. With
 * several hosts, `load.hosts` has each one's cores and `hostProcessCores` etc. are their sums.
 */
export async function measured(receiver, hosts, fn, serverCpu = null) {
  receiver.reset();
  const serverBefore = serverCpu ? await serverCpu() : null;
  const cpu = cpuSampler();
  const before = hosts.map(readCpu);
  const run = await fn();
  const load = cpu.stop();
  const after = hosts.map(readCpu);
  if (serverBefore) {
    // PostgreSQL's processes serving this database (≈: a connection that closed in between is missed).
    const serverAfter = await serverCpu();
    const seconds = Object.keys(serverAfter).reduce(
      (sum, pid) => sum + serverAfter[pid] - (serverBefore[pid] ?? 0),
      0,
    );
    load.dbServerCores = seconds / load.seconds;
  }
  const { records, cpu: receiverCpu, busiestCpu } = await receiver.dump();
  load.receiverProcessCores = (receiverCpu.user + receiverCpu.system) / 1e6 / load.seconds;
  // Spread over several processes: the busiest one's cores (one process is bound at about one core).
  load.receiverBusiestProcessCores =
    busiestCpu === undefined ? load.receiverProcessCores : busiestCpu / 1e6 / load.seconds;
  const perHost = hosts.map((host, i) => hostLoad(host, before[i], after[i], load.seconds));
  for (const k of Object.keys(load)) load[k] = round2(load[k]);
  const alive = perHost.filter(Boolean);
  if (alive.length > 0) {
    load.hostProcessCores = round2(alive.reduce((s, h) => s + h.processCores, 0));
    load.hostMainThreadCores = round2(alive.reduce((s, h) => s + h.mainThreadCores, 0));
    load.hostBusiestOtherThreadCores = Math.max(...alive.map((h) => h.busiestOtherThreadCores));
    load.hostOtherThreadsCores = alive[0].otherThreadsCores;
  }
  if (hosts.length > 1) load.hosts = perHost;
  return { run, records, load };
}

/** The event ids the hosts accepted (202) in a run. */
const acceptedIds = (run) => run.results.filter((r) => !r.error).map((r) => r.eventId);

/** Only the records of `ids` (the receiver may still get late attempts of an earlier phase's events). */
function own(records, ids) {
  const set = new Set(ids);
  return records.filter((r) => set.has(r[R.eventId]));
}

/** Warm-up burst (JIT, caches, sockets): not measured. */
export async function warmUp(receiver, backend, count, concurrency) {
  receiver.reset(); // the wait below must count only the warm-up's own events
  const warm = await backend.poster.burst(count, concurrency);
  await receiver.waitForEvents(acceptedIds(warm), 60_000);
}

/** (b) `count` events as fast as `concurrency` POSTs in flight allow; waits for every accepted one. */
export async function burstPhase(receiver, backend, count, concurrency) {
  const m = await measured(
    receiver,
    backend.hosts,
    async () => {
      const run = await backend.poster.burst(count, concurrency);
      await receiver.waitForEvents(acceptedIds(run), 90_000);
      return run;
    },
    backend.serverCpu,
  );
  return { ...analyzeHost(m.run, own(m.records, acceptedIds(m.run))), load: m.load };
}

/**
 * (b) events at `rate` per second for `seconds`; waits (≤ 30 s) for every accepted one: its 200, or with
 * `until: 'settled'` (a receiver that fails some attempts) its 200 or its 4th attempt.
 */
export async function pacedPhase(receiver, backend, rate, seconds, maxInFlight, until = 'ok') {
  const m = await measured(
    receiver,
    backend.hosts,
    async () => {
      const run = await backend.poster.paced(rate, seconds, maxInFlight);
      await receiver.waitForEvents(acceptedIds(run), 30_000, until);
      return run;
    },
    backend.serverCpu,
  );
  return { rate, ...analyzeHost(m.run, own(m.records, acceptedIds(m.run))), load: m.load };
}

/**
 * (c) Paced while the receiver answers 500 to `failRate` of attempts (the caller configures it); waits
 * up to `settleMs` until every accepted event has a 200 or 4 attempts, then reads the host's own attempt
 * log of each retried delivery (a few hundred GETs, after the measurement, from host 1: any host serves
 * the shared storage).
 */
export async function failingPhase(receiver, backend, { rate, seconds, maxInFlight, failRate, settleMs }) {
  let settled = false;
  const started = now();
  const m = await measured(
    receiver,
    backend.hosts,
    async () => {
      const run = await backend.poster.paced(rate, seconds, maxInFlight);
      settled = await receiver.waitForEvents(acceptedIds(run), settleMs, 'settled');
      return run;
    },
    backend.serverCpu,
  );
  const records = own(m.records, acceptedIds(m.run));
  // Retried: more than one request at the receiver (whatever attempt number they carried).
  const requests = new Map();
  for (const r of records) requests.set(r[R.deliveryId], (requests.get(r[R.deliveryId]) ?? 0) + 1);
  const retried = [...requests.keys()].filter((id) => requests.get(id) > 1);
  const deliveries = [];
  const api = backend.hosts[0].url;
  // The BullMQ reference (bullmq.mjs) keeps no attempt log to read.
  for (const id of backend.kind === 'bullmq' ? [] : retried) {
    try {
      deliveries.push(
        await hostApi(api, 'GET', `/v1/installations/${backend.installationId}/deliveries/${id}`),
      );
    } catch {
      // reported as fewer deliveries read than retried
    }
  }
  return {
    rate,
    failRate,
    settledInTime: settled,
    settleWaitMs: Math.round(now() - started),
    foreignRecords: m.records.length - records.length,
    ...analyzeHost(m.run, records),
    ...analyzeRetries(m.run, records),
    hostRecorded: {
      ...analyzeHostGaps(deliveries, records),
      retriedDeliveries: retried.length,
      // Attempts of those deliveries in the host's attempt log, against the requests the receiver got.
      attemptsInHostLog: deliveries.reduce((n, d) => n + (d.attempts?.length ?? 0), 0),
      requestsAtReceiver: retried.reduce((n, id) => n + requests.get(id), 0),
    },
    load: m.load,
  };
}

/**
 * kill -9 of the last host while `count` events are posted (paced at `rate`, in turns over the hosts):
 * once half are sent, the host is killed and the rest go to the others. Then waits up to `settleMs` for
 * every accepted event (the killed host's leased deliveries come back when their lease ends).
 */
export async function killPhase(receiver, backend, { count, rate, maxInFlight, leaseMs, settleMs }) {
  if (backend.hosts.length < 2) throw new Error('the kill phase needs at least two hosts (--hosts=2)');
  const victim = backend.hosts.at(-1);
  let killedAt = null;
  let killError = null;
  const m = await measured(receiver, backend.hosts, async () => {
    const run = await backend.poster.paced(rate, count / rate, maxInFlight, {
      at: Math.floor(count / 2),
      run: async () => {
        try {
          backend.poster.drop(victim.url);
          killedAt = now();
          await victim.kill();
        } catch (error) {
          killError = String(error);
        }
      },
    });
    const waitStart = now();
    const settled = await receiver.waitForEvents(acceptedIds(run), settleMs);
    run.waitedMs = Math.round(now() - waitStart);
    run.settled = settled;
    return run;
  });
  return {
    rate,
    leaseMs,
    killedHost: backend.hosts.length,
    killError,
    settledInTime: m.run.settled,
    waitedAfterSendingMs: m.run.waitedMs,
    ...analyzeKill(m.run, own(m.records, acceptedIds(m.run)), killedAt, backend.hosts.length - 1),
    load: m.load,
  };
}

/**
 * The raw ceiling (a): `params.rawCount` signed POSTs straight to the receiver over `connections` sockets,
 * with `target`'s installation and secret (its hosts' CPU is read too: idle, for the load table).
 */
export function rawRunner(receiver, target, params) {
  const opts = (connections) => ({
    url: receiver.url,
    secret: target.secret,
    installationId: target.installationId,
    concurrency: params.concurrency,
    connections,
  });
  return {
    warm: (connections) => rawPosts({ ...opts(connections), count: params.warmup }),
    async measure(connections) {
      const m = await measured(receiver, target.hosts, async () => {
        const run = await rawPosts({ ...opts(connections), count: params.rawCount });
        await receiver.waitForEvents(run.eventIds, 30_000);
        return run;
      });
      return { connections, ...analyzeRaw(m.run, own(m.records, m.run.eventIds)), load: m.load };
    },
  };
}

/** The kill -9 phase for `backend` with the run's counts (the receiver should answer 200 to everything). */
export function killRun(receiver, backend, hostEnv, params) {
  const leaseMs = leaseMsOf(hostEnv);
  return killPhase(receiver, backend, {
    count: params.killCount,
    rate: params.killRate,
    maxInFlight: params.concurrency,
    leaseMs,
    settleMs: leaseMs + 20_000,
  });
}
