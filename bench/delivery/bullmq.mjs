// The BullMQ reference row of `bench:delivery` (compare.mjs, run.mjs): a redis-server of the benchmark's
// own (a free port on 127.0.0.1, a temp folder, AOF on with `appendfsync everysec`, no RDB snapshots),
// and bullmq-service.mjs (BullMQ 6 queue + worker) in its own process, delivering the same signed 400-byte
// events to the same receiver with the same concurrency. It has the shape of a backend (backend.mjs):
// `hosts`, `poster`, `secret`, `installationId`, `serverCpu` (Redis's CPU), `stop()`, so every phase runs
// on it unchanged. The Redis process and its folder go at `stop()`, or at clean-up whatever ends the run.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onCleanup } from './cleanup.mjs';
import { freePort, procCpuSeconds, spawnHost } from './host-process.mjs';
import { ADMIN_TOKEN, sleep } from './lib.mjs';
import { threadedPoster } from './poster-threads.mjs';

/**
 * The redis-server to start: $BENCH_REDIS_SERVER, else the first on `env.PATH`, else one of `fallbacks`
 * (/usr/bin); null if none is an executable file.
 *
 * @example
 * findRedisServer(); // '/usr/bin/redis-server' (or null: the BullMQ row is skipped)
 */
export function findRedisServer(env = process.env, fallbacks = ['/usr/bin/redis-server']) {
  const candidates = [
    env.BENCH_REDIS_SERVER,
    ...(env.PATH ?? '').split(delimiter).map((dir) => dir && join(dir, 'redis-server')),
    ...fallbacks,
  ].filter(Boolean);
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      // not there, or not executable
    }
  }
  return null;
}

/** Sends `PING` to 127.0.0.1:`port` until it answers `+PONG` (≤ 10 s). */
async function waitForRedis(port, child) {
  const { createConnection } = await import('node:net');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`redis-server exited during start-up (code ${child.exitCode})`);
    const pong = await new Promise((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
      socket.once('error', () => resolve(false));
    });
    if (pong) return;
    await sleep(50);
  }
  throw new Error(`redis-server did not answer PING on port ${port} within 10 s`);
}

/**
 * Starts redis-server (`binary`) on a free port with AOF `everysec` in a temp folder; returns its port,
 * pid and `stop()` (SIGTERM, then SIGKILL after 5 s; the folder is removed).
 */
export async function startRedis(binary) {
  const dir = await mkdtemp(join(tmpdir(), 'platform-bench-redis-'));
  const port = await freePort();
  const child = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction', // BullMQ's requirement (it warns otherwise)
      '--protected-mode',
      'yes',
      '--logfile',
      join(dir, 'redis.log'),
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Never outlive the benchmark (watchdog exit, crash).
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  let stopped = null;
  const stop = () => {
    stopped ??= (async () => {
      process.off('exit', onExit);
      unregister();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    })();
    return stopped;
  };
  const unregister = onCleanup(stop);
  try {
    await waitForRedis(port, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, pid: child.pid, dir, stop };
}

/**
 * The BullMQ reference as a backend: Redis + bullmq-service.mjs delivering to `receiverUrl` with
 * `concurrency` jobs at once; events are posted the host's way (`postConcurrency` sockets). Returns null
 * (and says why) when no redis-server is found.
 */
export async function startBullmq({ receiverUrl, concurrency, postConcurrency, sortableIds = false }) {
  const binary = findRedisServer();
  if (!binary) {
    console.log(
      'BullMQ reference: skipped (no redis-server on PATH, in /usr/bin or in $BENCH_REDIS_SERVER; install Redis 6.2+ for the row)',
    );
    return null;
  }
  const redis = await startRedis(binary);
  const installationId = `inst_bullmq_${randomBytes(6).toString('hex')}`;
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  let service = null;
  let poster = null;
  let stopped = null;
  // The service before Redis (clean-up runs last registered first), so that it does not see Redis go.
  const stop = () => {
    stopped ??= (async () => {
      unregister();
      await poster?.close();
      const stops = service ? [await service.stop()] : [];
      await redis.stop();
      return { hostStops: stops, hostLogs: [] };
    })();
    return stopped;
  };
  const unregister = onCleanup(stop);
  try {
    service = await spawnHost(
      {
        REDIS_PORT: String(redis.port),
        BULL_TARGET: receiverUrl,
        BULL_SECRET: secret,
        BULL_INSTALLATION: installationId,
        BULL_CONCURRENCY: String(concurrency),
      },
      [],
      fileURLToPath(new URL('./bullmq-service.mjs', import.meta.url)),
    );
    poster = threadedPoster(
      {
        hostUrls: [service.url],
        adminToken: ADMIN_TOKEN,
        installationId,
        connections: postConcurrency,
        sortableIds,
      },
      1,
    );
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  return {
    kind: 'bullmq',
    label: 'BullMQ',
    hosts: [service],
    installationId,
    secret,
    poster,
    databaseName: null,
    redis: { binary, port: redis.port },
    redisPid: redis.pid,
    redisDir: redis.dir,
    // Redis's CPU, in the column the PostgreSQL server's goes to (pid → CPU seconds, as backend.mjs).
    serverCpu: async () => {
      try {
        return { [redis.pid]: procCpuSeconds(redis.pid) };
      } catch {
        return {};
      }
    },
    stop,
  };
}

/** `startBullmq` with the run's parsed options (options.mjs) and counts (`params`); null when off or absent. */
export function startBullmqWith(options, params, receiverUrl) {
  if (!options.bullmq) {
    console.log('BullMQ reference: off (--no-bullmq)');
    return Promise.resolve(null);
  }
  return startBullmq({
    receiverUrl,
    concurrency: params.concurrency,
    postConcurrency: params.postConcurrency,
    sortableIds: options.eventIds === 'sortable',
  });
}
