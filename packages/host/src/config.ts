import { resolve } from 'node:path';
import type { SqliteSynchronous } from './storage/index.js';

/** Operator settings of the host, read from the environment (PRODUCT.md "Operator settings"). */
export interface HostConfig {
  /** TCP port of the HTTP server. `0` picks a free port. */
  port: number;
  /** Interface to bind. Default `127.0.0.1`; set `HOST=0.0.0.0` to serve other machines. */
  hostname: string;
  /** Folder of the embedded SQLite database and the generated admin token. */
  dataDir: string;
  /** PostgreSQL connection string; when set, used instead of SQLite. */
  databaseUrl?: string;
  /**
   * `PLATFORM_SQLITE_SYNC`: `full` (default): a write (an accepted event, a new installation, ...) is
   * acknowledged only once the SQLite log is synced to disk, so it survives a power loss or an OS crash;
   * `normal`: acknowledged once committed, which survives a crash of the host process but not of the
   * machine (its last moments' commits may roll back). See src/storage/README.md "Durability".
   */
  sqliteSync: SqliteSynchronous;
  /** Operator bearer token; generated and kept in `dataDir` when unset. */
  adminToken?: string;
  /**
   * `PLATFORM_METRICS_TOKEN`: a bearer token that can read `GET /metrics` and nothing else (for
   * Prometheus); the operator token can read it too. Unset: only the operator token.
   */
  metricsToken?: string;
  /** Raw `PLATFORM_ALLOW_PRIVATE_TARGETS` value: `1` or a comma-separated CIDR list. */
  allowPrivateTargets?: string;
  /** Base URL the host is reachable at, used for `apiEndpoint` and public endpoints. */
  publicUrl?: string;
  /** Per-invocation time limit for integration code, in ms. */
  invocationTimeoutMs: number;
  /** Per-attempt time limit of a webhook delivery, in ms. */
  deliveryTimeoutMs: number;
  /** Webhook deliveries in flight at once. */
  deliveryConcurrency: number;
  /**
   * `PLATFORM_DELIVERY_CONCURRENCY_PER_INSTALLATION`: most deliveries in flight at once of an installation
   * whose endpoint is slow (an attempt of it ran past 500 ms within the last minute), so that a slow or
   * dead endpoint leaves the delivery slots to the other subscribers. Installations that answer quickly
   * are not limited. Default: a quarter of `deliveryConcurrency`, at least 4 (16 of 64); at most
   * `deliveryConcurrency`.
   */
  deliveryConcurrencyPerInstallation: number;
  /**
   * `PLATFORM_DELIVERY_THREAD`: run the webhook delivery engine in a worker thread (`true`, `1`) with its
   * own storage handle, or on the main thread next to the HTTP server (`false`, `0`).
   */
  deliveryThread: boolean;
  /**
   * `PLATFORM_RETENTION_DAYS`: finished deliveries and invocations (with their attempts), accepted events
   * and invocation logs older than this are deleted (hourly). `0` keeps everything. An event id is
   * idempotent for as long as its event is kept.
   */
  retentionDays: number;
  /** Log level for the host logger. */
  logLevel: string;
}

/** Default of `PLATFORM_DELIVERY_THREAD` (see docs/benchmarks.md for the measurements behind it). */
export const DELIVERY_THREAD_DEFAULT = true;

/** A setting that cannot be used as given; the message names the variable and how to fix it. */
export class ConfigError extends Error {
  readonly code = 'invalid_config';
}

/** A quarter of the delivery slots, at least 4, at most all of them. */
function defaultPerInstallation(concurrency: number): number {
  return Math.min(concurrency, Math.max(4, Math.ceil(concurrency / 4)));
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  return value;
}

function choice<T extends string>(
  env: NodeJS.ProcessEnv,
  name: string,
  values: readonly T[],
  fallback: T,
): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = values.find((v) => v === raw.toLowerCase());
  if (value === undefined)
    throw new ConfigError(`${name} must be one of ${values.join(', ')}; got "${raw}".`);
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === '1') return true;
  if (raw === '0') return false;
  throw new ConfigError(`${name} must be 1 (on) or 0 (off); got "${raw}".`);
}

/**
 * Reads the host configuration from environment variables.
 *
 * @example
 * const config = loadConfig(process.env); // PORT=8080 PLATFORM_DATA_DIR=./.platform ...
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): HostConfig {
  const publicUrl = env.PLATFORM_PUBLIC_URL?.replace(/\/+$/, '');
  if (publicUrl !== undefined && !/^https?:\/\/[^/]+/.test(publicUrl)) {
    throw new ConfigError(`PLATFORM_PUBLIC_URL must be an absolute http(s) URL; got "${publicUrl}".`);
  }
  const adminToken = env.PLATFORM_ADMIN_TOKEN || undefined;
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('PLATFORM_ADMIN_TOKEN must be at least 16 characters long.');
  }
  const metricsToken = env.PLATFORM_METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && (metricsToken.length < 16 || /\s/.test(metricsToken))) {
    throw new ConfigError('PLATFORM_METRICS_TOKEN must be at least 16 characters long, without spaces.');
  }
  if (metricsToken !== undefined && metricsToken === adminToken) {
    throw new ConfigError(
      'PLATFORM_METRICS_TOKEN must differ from PLATFORM_ADMIN_TOKEN: it is the token a scraper holds, which may read metrics only.',
    );
  }
  const deliveryConcurrency = int(env, 'PLATFORM_DELIVERY_CONCURRENCY', 64, 1, 1024);
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    hostname: env.HOST || '127.0.0.1',
    dataDir: resolve(env.PLATFORM_DATA_DIR || './.platform'),
    databaseUrl: env.DATABASE_URL || undefined,
    adminToken,
    metricsToken,
    allowPrivateTargets: env.PLATFORM_ALLOW_PRIVATE_TARGETS || undefined,
    publicUrl,
    invocationTimeoutMs: int(env, 'PLATFORM_INVOCATION_TIMEOUT_MS', 10_000, 100, 300_000),
    deliveryTimeoutMs: int(env, 'PLATFORM_DELIVERY_TIMEOUT_MS', 10_000, 100, 300_000),
    deliveryConcurrency,
    deliveryConcurrencyPerInstallation: int(
      env,
      'PLATFORM_DELIVERY_CONCURRENCY_PER_INSTALLATION',
      defaultPerInstallation(deliveryConcurrency),
      1,
      deliveryConcurrency,
    ),
    deliveryThread: flag(env, 'PLATFORM_DELIVERY_THREAD', DELIVERY_THREAD_DEFAULT),
    sqliteSync: choice(env, 'PLATFORM_SQLITE_SYNC', ['full', 'normal'] as const, 'full'),
    retentionDays: int(env, 'PLATFORM_RETENTION_DAYS', 30, 0, 36_500),
    logLevel: env.LOG_LEVEL || 'info',
  };
}
