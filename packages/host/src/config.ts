import { join, resolve } from 'node:path';
import { parseDuration } from './duration.js';
import { parseAllowPrivateTargets } from './net/policy.js';
import { validateWebhookUrl } from './net/url.js';
import { parseKey, type SecretsKeySettings } from './secrets/index.js';
import type { PostgresPoolSettings, SqliteSynchronous } from './storage/index.js';
import { PG_DEFAULTS } from './storage/postgres.js';
import { parseTracingEnv, type TracingConfig } from './tracing/index.js';

/** The operator's default: an endpoint whose deliveries have all been exhausted for 24 hours is disabled. */
export const DEFAULT_DISABLE_AFTER_MS = 24 * 3_600_000;

/** Operator settings of the host, read from the environment (docs/contracts.md "Operator settings"). */
export interface HostConfig {
  /**
   * Tracing, from the standard `OTEL_*` variables (docs/operations.md "Tracing"): undefined (off, the
   * default) unless an OTLP endpoint is named.
   */
  tracing?: TracingConfig;
  /** TCP port of the HTTP server. `0` picks a free port. */
  port: number;
  /** Interface to bind. Default `127.0.0.1`; set `HOST=0.0.0.0` to serve other machines. */
  hostname: string;
  /** Folder of the embedded SQLite database and the generated admin token. */
  dataDir: string;
  /** PostgreSQL connection string; when set, used instead of SQLite. */
  databaseUrl?: string;
  /**
   * PostgreSQL pool settings (used with `databaseUrl`; see packages/host/README.md "Running on PostgreSQL"):
   * `PLATFORM_PG_POOL_SIZE` connections at most per pool (the main thread and the delivery thread each have
   * one), `PLATFORM_PG_CONNECT_TIMEOUT_MS` the longest wait for a connection, `PLATFORM_PG_STATEMENT_TIMEOUT_MS`
   * the longest statement (`0`: no limit).
   */
  pg: Required<PostgresPoolSettings>;
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
   * The key that seals the secrets stored in the database (docs/operations.md "Secrets key"):
   * `PLATFORM_SECRETS_KEY` (32 bytes, base64 or hex), else the file `PLATFORM_SECRETS_KEY_FILE`
   * (default `<dataDir>/secrets-key`), generated at first start; `PLATFORM_SECRETS_OLD_KEYS`
   * (comma-separated) still open what they sealed, and the start re-seals it under the current key.
   */
  secretsKey: SecretsKeySettings;
  /**
   * `PLATFORM_METRICS_TOKEN`: a bearer token that can read `GET /metrics` and nothing else (for
   * Prometheus); the operator token can read it too. Unset: only the operator token.
   */
  metricsToken?: string;
  /** Raw `PLATFORM_ALLOW_PRIVATE_TARGETS` value: `1` or a comma-separated CIDR list. */
  allowPrivateTargets?: string;
  /** Base URL the host is reachable at, used for `apiEndpoint` and public endpoints. */
  publicUrl?: string;
  /**
   * `PLATFORM_CONTENT_PORT`: TCP port of the second listener, the content origin that serves the
   * installations' public endpoints (integration content) on an origin other than the API's and the
   * dashboard's. Default: `PORT + 1` (`0`, a free port, when `PORT` is 0). See docs/security.md.
   */
  contentPort: number;
  /** Whether `PLATFORM_CONTENT_PORT` was given (else a busy default port falls back to a free one). */
  contentPortExplicit: boolean;
  /**
   * `PLATFORM_CONTENT_URL`: base URL the content origin is reachable at (behind a proxy or on its own
   * domain); its origin must differ from `PLATFORM_PUBLIC_URL`'s. Unset: `http://HOST:PLATFORM_CONTENT_PORT`
   * — unless `PLATFORM_PUBLIC_URL` is set, then public endpoints are advertised on it (sandboxed there).
   */
  contentUrl?: string;
  /** Per-invocation time limit for integration code, in ms. */
  invocationTimeoutMs: number;
  /**
   * Limits of one call into an integration besides its time (docs/security.md "Limits per invocation"):
   * `PLATFORM_INVOCATION_MAX_RESPONSE_BYTES` (body of its answer), `PLATFORM_INVOCATION_MAX_REQUEST_BYTES`
   * (body a public endpoint forwards to it), `PLATFORM_INVOCATION_MAX_SUBREQUESTS` (its own `fetch`
   * calls), `PLATFORM_INVOCATION_MAX_LOG_BYTES` (log text kept of it).
   */
  invocationLimits: InvocationLimits;
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
   * `PLATFORM_QUEUE_POLL_MS`: the longest a delivery or invocation worker sleeps without being told of
   * new work — a safety net only: a host wakes its workers after every commit, retries arm a timer for
   * their due time, and on PostgreSQL the other hosts' work arrives as a queue signal. Default 1000.
   */
  queuePollMs: number;
  /**
   * `PLATFORM_ACCEPT_GATHER_MS`: how long an accepted event waits for company before its group is written,
   * when events arrive closer together than this (at 1 000 events/s, groups of about three: one statement
   * and one sync each instead of one per event). A lone event, or one arriving while a group is written, does
   * not wait, and neither do the events of a publisher whose waits keep finding no company (one posting an
   * event at a time); a wait ends once it holds the company recent waits found (jobs/company-waits.ts). `0`
   * writes every group at once. Default 2.
   */
  acceptGatherMs: number;
  /**
   * `PLATFORM_CHECK_TRANSACTIONS`: `1` makes the storage throw when host code uses it inside one of its
   * own transactions (a bug: a deadlock on SQLite), at the price of CPU on every promise (about a tenth of
   * a delivery's in a burst). Default on under `NODE_ENV=test` or `development`, else off.
   */
  checkTransactions: boolean;
  /**
   * `PLATFORM_DELIVERY_THREAD`: run the webhook delivery engine in a worker thread (`1`, the default) with
   * its own storage handle, or on the main thread next to the HTTP server (`0`).
   */
  deliveryThread: boolean;
  /**
   * `PLATFORM_RETENTION_DAYS`: finished deliveries and invocations (with their attempts), accepted events
   * and invocation logs older than this are deleted (hourly). `0` keeps everything. An event id is
   * idempotent for as long as its event is kept.
   */
  retentionDays: number;
  /**
   * `PLATFORM_AUDIT_RETENTION_DAYS`: audit log entries older than this are deleted (default 365; 0 keeps them
   * forever). See docs/security.md "Audit log".
   */
  auditRetentionDays: number;
  /**
   * `PLATFORM_STATS_INTERVAL_MS`: how often the delivery statistics are rolled up from the attempts
   * (default 60 000; `0` turns the rollup off). See docs/operations.md "Charts".
   */
  statsIntervalMs: number;
  /**
   * `PLATFORM_PORTAL_FRAME_ANCESTORS`: the origins that may embed the subscriber portal page in a frame
   * (its `Content-Security-Policy: frame-ancestors`), from a space or comma separated list. Empty (the
   * default): no page may frame it (`'none'`). See docs/portal.md.
   */
  portalFrameAncestors: string[];
  /**
   * `PLATFORM_TOKEN_CACHE_MS`: how long a host keeps what it read of an organization token or a portal
   * session (a revocation or an expiry written through another host, or into the database, applies within
   * it). Default 5000; `0`: read at every request.
   */
  tokenCacheMs: number;
  /**
   * `PLATFORM_ENDPOINT_DISABLE_AFTER`: a webhook endpoint whose deliveries have all ended `exhausted` for
   * this long (no success in between) is disabled; its new deliveries are kept until it is enabled again
   * (docs/contracts.md "Endpoint health"). A duration (`90s`, `30m`, `24h`, `3d`); `0` never disables.
   * Default 24 h.
   */
  endpointDisableAfterMs: number;
  /**
   * `PLATFORM_OPERATOR_EVENTS_URL` and `PLATFORM_OPERATOR_EVENTS_SECRET`: where the operator events
   * (`endpoint.disabled`, `endpoint.recovered`, `delivery.exhausted`) are delivered, signed with the secret
   * in the platform scheme (docs/contracts.md "Operator events"). Undefined: none is sent.
   */
  operatorEvents?: { url: string; secret: string };
  /** Log level for the host logger. */
  logLevel: string;
}

/** Limits of one call into an integration (besides `invocationTimeoutMs`). */
export interface InvocationLimits {
  /** Most bytes of an integration's response body; more is a 502 `integration_response_too_large`. */
  responseBytes: number;
  /** Most bytes of a request body a public endpoint forwards to an integration; more is a 413. */
  requestBytes: number;
  /** Most outbound requests (`fetch`) of one invocation; the next one throws inside the integration. */
  subrequests: number;
  /** Most bytes of log text kept of one invocation; later lines are dropped and counted. */
  logBytes: number;
}

/** Defaults of {@link InvocationLimits} (see README "Operator settings"). */
export const INVOCATION_LIMIT_DEFAULTS: InvocationLimits = {
  responseBytes: 10 * 1024 * 1024,
  requestBytes: 10 * 1024 * 1024,
  subrequests: 50,
  logBytes: 16 * 1024,
};

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

/** `PLATFORM_STATS_INTERVAL_MS`: 0 (off) or from 100 ms to an hour. */
function statsInterval(env: NodeJS.ProcessEnv): number {
  const value = int(env, 'PLATFORM_STATS_INTERVAL_MS', 60_000, 0, 3_600_000);
  if (value !== 0 && value < 100) {
    throw new ConfigError(
      `PLATFORM_STATS_INTERVAL_MS must be 0 (no statistics) or from 100 to 3600000 ms; got "${env.PLATFORM_STATS_INTERVAL_MS}".`,
    );
  }
  return value;
}

/** `PLATFORM_ENDPOINT_DISABLE_AFTER`: `0` (never) or a duration from 1 s to 30 days; default 24 h. */
function endpointDisableAfter(env: NodeJS.ProcessEnv): number {
  const raw = env.PLATFORM_ENDPOINT_DISABLE_AFTER?.trim();
  if (raw === undefined || raw === '') return DEFAULT_DISABLE_AFTER_MS;
  if (raw === '0') return 0;
  const ms = parseDuration(raw);
  if (ms === undefined || ms < 1000 || ms > 30 * 24 * 3_600_000) {
    throw new ConfigError(
      `PLATFORM_ENDPOINT_DISABLE_AFTER must be 0 (never disable an endpoint) or a duration from 1s to 30d written as a whole number with s, m, h or d (e.g. 24h); got "${raw}".`,
    );
  }
  return ms;
}

/** At least this many characters in `PLATFORM_OPERATOR_EVENTS_SECRET`. */
const MIN_OPERATOR_SECRET_LENGTH = 24;

/** `PLATFORM_OPERATOR_EVENTS_URL` (an allowed webhook URL) with its signing secret, or nothing. */
function operatorEventsSetting(env: NodeJS.ProcessEnv): { operatorEvents?: { url: string; secret: string } } {
  const url = env.PLATFORM_OPERATOR_EVENTS_URL?.trim();
  if (!url) return {};
  const secret = env.PLATFORM_OPERATOR_EVENTS_SECRET ?? '';
  if (secret.length < MIN_OPERATOR_SECRET_LENGTH) {
    throw new ConfigError(
      `PLATFORM_OPERATOR_EVENTS_URL is set, so PLATFORM_OPERATOR_EVENTS_SECRET must be too: at least ${MIN_OPERATOR_SECRET_LENGTH} characters, the key operator events are signed with (X-Platform-Signature); make one with \`node -e "console.log('whsec_' + crypto.randomBytes(32).toString('base64url'))"\`.`,
    );
  }
  const check = validateWebhookUrl(url, parseAllowPrivateTargets(env.PLATFORM_ALLOW_PRIVATE_TARGETS));
  if (!check.ok) throw new ConfigError(`PLATFORM_OPERATOR_EVENTS_URL: ${check.message}`);
  return { operatorEvents: { url, secret } };
}

/** A duration in ms from `min` to `max`, or 0 for "no limit". */
function limitMs(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const value = int(env, name, fallback, 0, max);
  if (value !== 0 && value < min) {
    throw new ConfigError(`${name} must be 0 (no limit) or from ${min} to ${max} ms; got "${env[name]}".`);
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
 * Parses `PLATFORM_PORTAL_FRAME_ANCESTORS`: origins (`https://docs.example.com`, `http://127.0.0.1:3000`,
 * a wildcard subdomain `https://*.example.com`) separated by spaces or commas; nothing else may enter the
 * `frame-ancestors` directive. Unset or empty: none.
 *
 * @example
 * parseFrameAncestors('https://a.example.com, https://b.example.com'); // ['https://a.example.com', 'https://b.example.com']
 */
export function parseFrameAncestors(raw: string | undefined): string[] {
  const name = 'PLATFORM_PORTAL_FRAME_ANCESTORS';
  const entries = (raw ?? '').split(/[\s,]+/).filter(Boolean);
  const origins: string[] = [];
  for (const entry of entries) {
    const origin = entry.replace(/\/+$/, '');
    const wildcard = /^https?:\/\/\*\./.test(origin);
    let parsed: URL | null = null;
    try {
      parsed = new URL(wildcard ? origin.replace('*.', 'wildcard.') : origin);
    } catch {
      parsed = null;
    }
    // Only what an origin is made of (no `;` or quote could end the directive or add another).
    const plain = /^https?:\/\/(\*\.)?([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/i.test(origin);
    const exact =
      plain &&
      parsed !== null &&
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
      (wildcard ? parsed.origin.replace('wildcard.', '*.') : parsed.origin) === origin.toLowerCase();
    if (!exact) {
      throw new ConfigError(
        `${name} must list origins (scheme, host and port only, such as https://docs.example.com or https://*.example.com), separated by spaces or commas; "${entry}" is not one.`,
      );
    }
    if (!origins.includes(origin.toLowerCase())) origins.push(origin.toLowerCase());
  }
  return origins;
}

/** `PLATFORM_SECRETS_KEY`, `PLATFORM_SECRETS_KEY_FILE`, `PLATFORM_SECRETS_OLD_KEYS`, each key validated. */
function secretsKeySettings(env: NodeJS.ProcessEnv): SecretsKeySettings {
  const dataDir = resolve(env.PLATFORM_DATA_DIR || './.platform');
  const oldKeys = (env.PLATFORM_SECRETS_OLD_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  const check = (text: string, where: string) => {
    try {
      parseKey(text, where);
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
  };
  if (env.PLATFORM_SECRETS_KEY) check(env.PLATFORM_SECRETS_KEY, 'PLATFORM_SECRETS_KEY');
  for (const [i, key] of oldKeys.entries()) check(key, `PLATFORM_SECRETS_OLD_KEYS (key #${i + 1})`);
  return {
    key: env.PLATFORM_SECRETS_KEY || undefined,
    keyFile: resolve(env.PLATFORM_SECRETS_KEY_FILE || join(dataDir, 'secrets-key')),
    oldKeys,
  };
}

/**
 * Reads the host configuration from environment variables.
 *
 * @example
 * const config = loadConfig(process.env); // PORT=8080 PLATFORM_DATA_DIR=./.platform ...
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): HostConfig {
  const tracing = parseTracingEnv(env, (message) => new ConfigError(message));
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
  const port = int(env, 'PORT', 8080, 0, 65535);
  const contentPort = int(env, 'PLATFORM_CONTENT_PORT', port === 0 ? 0 : port + 1, 0, 65535);
  if (contentPort !== 0 && contentPort === port) {
    throw new ConfigError(
      `PLATFORM_CONTENT_PORT must differ from PORT (${port}): integration content is served on an origin of its own.`,
    );
  }
  const contentUrl = env.PLATFORM_CONTENT_URL?.replace(/\/+$/, '') || undefined;
  if (contentUrl !== undefined) {
    if (!/^https?:\/\/[^/]+/.test(contentUrl)) {
      throw new ConfigError(`PLATFORM_CONTENT_URL must be an absolute http(s) URL; got "${contentUrl}".`);
    }
    if (publicUrl !== undefined && new URL(contentUrl).origin === new URL(publicUrl).origin) {
      throw new ConfigError(
        `PLATFORM_CONTENT_URL must be on another origin than PLATFORM_PUBLIC_URL (${new URL(publicUrl).origin}): that is what keeps integration content away from the dashboard's token. Use another host name or port.`,
      );
    }
  }
  return {
    port,
    contentPort,
    contentPortExplicit: Boolean(env.PLATFORM_CONTENT_PORT),
    contentUrl,
    hostname: env.HOST || '127.0.0.1',
    dataDir: resolve(env.PLATFORM_DATA_DIR || './.platform'),
    databaseUrl: env.DATABASE_URL || undefined,
    pg: {
      poolSize: int(env, 'PLATFORM_PG_POOL_SIZE', PG_DEFAULTS.poolSize, 1, 1000),
      connectTimeoutMs: int(
        env,
        'PLATFORM_PG_CONNECT_TIMEOUT_MS',
        PG_DEFAULTS.connectTimeoutMs,
        100,
        600_000,
      ),
      statementTimeoutMs: limitMs(
        env,
        'PLATFORM_PG_STATEMENT_TIMEOUT_MS',
        PG_DEFAULTS.statementTimeoutMs,
        100,
        86_400_000,
      ),
    },
    adminToken,
    secretsKey: secretsKeySettings(env),
    metricsToken,
    allowPrivateTargets: env.PLATFORM_ALLOW_PRIVATE_TARGETS || undefined,
    publicUrl,
    invocationTimeoutMs: int(env, 'PLATFORM_INVOCATION_TIMEOUT_MS', 10_000, 100, 300_000),
    invocationLimits: {
      responseBytes: int(
        env,
        'PLATFORM_INVOCATION_MAX_RESPONSE_BYTES',
        INVOCATION_LIMIT_DEFAULTS.responseBytes,
        1024,
        1024 ** 3,
      ),
      requestBytes: int(
        env,
        'PLATFORM_INVOCATION_MAX_REQUEST_BYTES',
        INVOCATION_LIMIT_DEFAULTS.requestBytes,
        1024,
        32 * 1024 * 1024,
      ),
      subrequests: int(
        env,
        'PLATFORM_INVOCATION_MAX_SUBREQUESTS',
        INVOCATION_LIMIT_DEFAULTS.subrequests,
        0,
        10_000,
      ),
      logBytes: int(
        env,
        'PLATFORM_INVOCATION_MAX_LOG_BYTES',
        INVOCATION_LIMIT_DEFAULTS.logBytes,
        0,
        1024 * 1024,
      ),
    },
    deliveryTimeoutMs: int(env, 'PLATFORM_DELIVERY_TIMEOUT_MS', 10_000, 100, 300_000),
    deliveryConcurrency,
    deliveryConcurrencyPerInstallation: int(
      env,
      'PLATFORM_DELIVERY_CONCURRENCY_PER_INSTALLATION',
      defaultPerInstallation(deliveryConcurrency),
      1,
      deliveryConcurrency,
    ),
    queuePollMs: int(env, 'PLATFORM_QUEUE_POLL_MS', 1000, 50, 600_000),
    acceptGatherMs: int(env, 'PLATFORM_ACCEPT_GATHER_MS', 2, 0, 50),
    deliveryThread: flag(env, 'PLATFORM_DELIVERY_THREAD', DELIVERY_THREAD_DEFAULT),
    checkTransactions: flag(
      env,
      'PLATFORM_CHECK_TRANSACTIONS',
      env.NODE_ENV === 'test' || env.NODE_ENV === 'development',
    ),
    sqliteSync: choice(env, 'PLATFORM_SQLITE_SYNC', ['full', 'normal'] as const, 'full'),
    retentionDays: int(env, 'PLATFORM_RETENTION_DAYS', 30, 0, 36_500),
    auditRetentionDays: int(env, 'PLATFORM_AUDIT_RETENTION_DAYS', 365, 0, 36_500),
    statsIntervalMs: statsInterval(env),
    portalFrameAncestors: parseFrameAncestors(env.PLATFORM_PORTAL_FRAME_ANCESTORS),
    tokenCacheMs: int(env, 'PLATFORM_TOKEN_CACHE_MS', 5000, 0, 3_600_000),
    endpointDisableAfterMs: endpointDisableAfter(env),
    ...operatorEventsSetting(env),
    logLevel: env.LOG_LEVEL || 'info',
    ...(tracing ? { tracing } : {}),
  };
}
