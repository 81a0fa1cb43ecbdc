import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Io } from '../io.js';
import { DEV_DATA_DIR } from './dev-session.js';

/** A host started in this process by `platform dev`. */
export interface LocalHost {
  url: string;
  token: string;
  /** Where the operator token is kept. */
  tokenFile: string;
  stop(): Promise<void>;
}

/**
 * Starts a host in this process (`startHost` from `@platform/host`, loaded only when needed) with
 * its data in `<dir>/.platform`, private targets allowed (so `platform listen` can deliver to
 * localhost). Tries `port`, then any free port when it is taken.
 *
 * @example
 * ```ts
 * const host = await startLocalHost(dir, 8080, process.env);
 * await host.stop();
 * ```
 */
export async function startLocalHost(
  dir: string,
  port: number,
  env: Io['env'],
): Promise<LocalHost & { movedFrom?: number }> {
  const { loadConfig, startHost } = await import('@platform/host');
  const dataDir = join(dir, DEV_DATA_DIR);
  const start = (p: number) =>
    startHost(
      loadConfig({
        PORT: String(p),
        PLATFORM_DATA_DIR: dataDir,
        PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
        LOG_LEVEL: env.LOG_LEVEL || 'error',
        ...(env.PLATFORM_INVOCATION_TIMEOUT_MS
          ? { PLATFORM_INVOCATION_TIMEOUT_MS: env.PLATFORM_INVOCATION_TIMEOUT_MS }
          : {}),
        ...(env.PLATFORM_DELIVERY_TIMEOUT_MS
          ? { PLATFORM_DELIVERY_TIMEOUT_MS: env.PLATFORM_DELIVERY_TIMEOUT_MS }
          : {}),
      }),
    );
  const free = port === 0 || (await portIsFree(port));
  const movedFrom = free ? undefined : port;
  const host = await start(free ? port : 0);
  return {
    url: host.url,
    token: host.adminToken,
    tokenFile: join(dataDir, 'admin-token'),
    stop: () => host.stop(),
    ...(movedFrom === undefined ? {} : { movedFrom }),
  };
}

/** Whether a host answers `GET /healthz` at `url` within a second. */
export async function isReachable(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url.replace(/\/+$/, '')}/healthz`, { signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return response.status === 200 || response.status === 503;
  } catch {
    return false;
  }
}

/** Whether `port` can be bound on 127.0.0.1 (checked before the host opens its storage). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
