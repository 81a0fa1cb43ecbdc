// The host(s) under test for one storage backend: SQLite (one host, a temp data folder) or PostgreSQL (a
// fresh database created for the run and dropped at its end, 1..3 host processes on it, each on its own
// port). The webhook installation is made once, on host 1; events are posted to the hosts in turn.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@platform/host';
import pg from 'pg';
import { onCleanup } from './cleanup.mjs';
import { limitCpu } from './cpu-budget.mjs';
import { inProcessHost, procCpuSeconds, spawnHost, summarizeLog } from './host-process.mjs';
import { ADMIN_TOKEN, installWebhook } from './lib.mjs';
import { threadedPoster } from './poster-threads.mjs';

/** The environment every benchmark host gets (plus PLATFORM_DATA_DIR / DATABASE_URL, from `startBackend`). */
export function benchHostEnv(options) {
  return {
    PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
    PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
    PLATFORM_DELIVERY_CONCURRENCY: '64',
    ...(options.deliveryThread === undefined ? {} : { PLATFORM_DELIVERY_THREAD: options.deliveryThread }),
    ...(options.sqliteSync === undefined ? {} : { PLATFORM_SQLITE_SYNC: options.sqliteSync }),
    LOG_LEVEL: 'warn',
  };
}

/** How long a host keeps a delivery leased: its delivery timeout + 5 s (the host's own rule). */
export const leaseMsOf = (hostEnv) => loadConfig(hostEnv).deliveryTimeoutMs + 5_000;

/** Where the benchmark creates its databases unless `--database-url=` says otherwise. */
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * Creates `platform_bench_<random>` through `adminUrl` (a database the user may connect to, with the right
 * to CREATE DATABASE) and returns its URL; the database is dropped by `drop()` or, whatever happens, at
 * clean-up (cleanup.mjs: errors, watchdog, Ctrl-C).
 */
export async function createBenchDatabase(adminUrl) {
  const url = new URL(adminUrl);
  if (!LOOPBACK.has(url.hostname)) {
    throw new Error(
      `--database-url must point at this machine (127.0.0.1 or localhost): the benchmark only talks to the loopback; got host "${url.hostname}"`,
    );
  }
  const name = `platform_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect().catch((error) => {
    throw new Error(`cannot connect to PostgreSQL at ${url.host}${url.pathname} (--database-url): ${error}`);
  });
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    unregister();
    // FORCE: a host killed with -9 may leave connections the server has not noticed yet.
    // BENCH_KEEP_DATABASE=1 keeps it for a look afterwards (EXPLAIN, pg_stat_user_tables); drop it by hand.
    if (process.env.BENCH_KEEP_DATABASE)
      console.error(`kept the benchmark's database ${name} (BENCH_KEEP_DATABASE)`);
    else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  };
  const unregister = onCleanup(drop);
  await admin.query(`CREATE DATABASE ${name}`);
  url.pathname = `/${name}`;
  /**
   * CPU seconds of the PostgreSQL server processes connected to this database now, by pid (from /proc:
   * the server runs on this machine). Shared server processes (WAL writer, checkpointer) are not in it.
   */
  const serverCpu = async () => {
    if (dropped) return {};
    const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name]);
    const out = {};
    for (const { pid } of rows) {
      try {
        out[pid] = procCpuSeconds(pid);
      } catch {
        // gone, or not visible from here
      }
    }
    return out;
  };
  return { name, url: url.toString(), drop, serverCpu };
}

/**
 * Starts one backend: `kind` 'sqlite' or 'pg', `hosts` host processes (pg only for more than one),
 * installs the webhook on host 1 delivering to `receiverUrl`, and returns the hosts, the installation
 * and a poster spreading events over the hosts. `hostCpus` (a number of cores, e.g. 0.4) puts each host
 * process in a cgroup of its own limited to that much CPU (cpu-budget.mjs); null: no limit. `loadThreads`
 * spreads the poster's bursts over that many worker threads (poster-threads.mjs).
 */
export async function startBackend({
  kind,
  hosts: hostCount = 1,
  hostMode = 'process',
  hostEnv,
  nodeArgs = [],
  profileDir = null,
  databaseUrl = DEFAULT_DATABASE_URL,
  receiverUrl,
  postConcurrency,
  sortableIds,
  hostCpus = null,
  loadThreads = 1,
  balance = 'turns',
}) {
  if (kind === 'sqlite' && hostCount !== 1)
    throw new Error('SQLite runs one host: --hosts needs --backend=pg');
  if (hostMode === 'inprocess' && hostCount !== 1) throw new Error('--hosts above 1 needs --host=process');
  const label = kind === 'sqlite' ? 'SQLite' : `PostgreSQL${hostCount > 1 ? ` × ${hostCount} hosts` : ''}`;
  const workDir = await mkdtemp(join(tmpdir(), `platform-bench-${kind}-`));
  const removeWorkDir = () => rm(workDir, { recursive: true, force: true });
  const unregisterWorkDir = onCleanup(removeWorkDir);
  const database = kind === 'pg' ? await createBenchDatabase(databaseUrl) : null;
  const env = {
    ...hostEnv,
    PLATFORM_DATA_DIR: join(workDir, 'data'),
    ...(database ? { DATABASE_URL: database.url } : {}),
  };
  const hosts = [];
  const logs = [];
  // Kept after the run (the work folder is removed): what the hosts logged at warn level and above.
  const logDir =
    hostMode === 'process'
      ? await mkdtemp(
          join(tmpdir(), `platform-bench-${kind}${hostCount > 1 ? `-${hostCount}hosts` : ''}-logs-`),
        )
      : null;
  const start = async (i) => {
    const logFile = logDir ? join(logDir, `host-${i + 1}.log`) : null;
    logs[i] = logFile;
    const args = [
      ...nodeArgs,
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, `${kind}-host-${i + 1}`)}`] : []),
    ];
    if (hostMode !== 'process') return inProcessHost(env);
    const host = await spawnHost(env, args, undefined, logFile);
    if (hostCpus !== null) host.budget = limitCpu(host.pid, hostCpus, `${kind}-host-${i + 1}`);
    return host;
  };
  let poster = null;
  const stop = async () => {
    await poster?.close();
    const hostStops = [];
    for (const host of hosts) {
      hostStops.push(await host.stop());
      host.budget?.release();
    }
    const hostLogs = logs.map((file) => summarizeLog(file));
    await database?.drop();
    unregisterWorkDir();
    await removeWorkDir();
    return { hostStops, hostLogs };
  };
  try {
    // Host 1 first (it applies the migrations), then the others at once.
    hosts.push(await start(0));
    hosts.push(...(await Promise.all(Array.from({ length: hostCount - 1 }, (_v, i) => start(i + 1)))));
    const { installationId, secret } = await installWebhook(hosts[0].url, receiverUrl);
    poster = threadedPoster(
      {
        hostUrls: hosts.map((h) => h.url),
        adminToken: ADMIN_TOKEN,
        installationId,
        connections: postConcurrency,
        sortableIds,
        balance,
      },
      loadThreads,
    );
    return {
      kind,
      label,
      hosts,
      installationId,
      secret,
      poster,
      databaseName: database?.name ?? null,
      serverCpu: database?.serverCpu ?? null,
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

/** `startBackend` with the run's parsed options (options.mjs) and counts (`params`). */
export function startBackendWith(options, params, { kind, hosts, hostEnv, receiverUrl, profileDir }) {
  return startBackend({
    kind,
    hosts,
    hostMode: options.hostMode,
    hostEnv,
    nodeArgs: options.hostNodeArgs,
    profileDir,
    databaseUrl: options.databaseUrl,
    receiverUrl,
    postConcurrency: params.postConcurrency,
    sortableIds: options.eventIds === 'sortable',
  });
}
