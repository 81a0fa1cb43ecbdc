import { createSecretBox, type KeyRing, NO_KEY_BOX, type SecretBox } from '../secrets/index.js';
import { migrate } from './migrate.js';
import { openPostgres } from './postgres.js';
import {
  listenForSignals,
  type QueueListener,
  type QueueListenerHandlers,
  silentListener,
} from './queue-signals.js';
import { type AccessTokensRepo, accessTokensRepo } from './repos/access-tokens.js';
import { type AssetsRepo, assetsRepo } from './repos/assets.js';
import { type AuditRepo, auditRepo } from './repos/audit.js';
import { deliveriesRepo } from './repos/deliveries.js';
import { type DeliveryStatsRepo, deliveryStatsRepo } from './repos/delivery-stats.js';
import { type DocumentsRepo, documentsRepo } from './repos/documents.js';
import { type EndpointHealthRepo, endpointHealthRepo } from './repos/endpoint-health.js';
import { type EventsRepo, eventsRepo } from './repos/events.js';
import { type InstallationsRepo, installationsRepo } from './repos/installations.js';
import { type IntegrationsRepo, integrationsRepo } from './repos/integrations.js';
import { type InvocationLogsRepo, invocationLogsRepo } from './repos/invocation-logs.js';
import type { JobsRepo } from './repos/jobs-api.js';
import { type OrganizationsRepo, organizationsRepo } from './repos/organizations.js';
import { queueRepo } from './repos/queue.js';
import { type SecretsAtRestRepo, secretsAtRestRepo } from './repos/secrets-at-rest.js';
import { type SettingsRepo, settingsRepo } from './repos/settings.js';
import { type WebhookCredentialsRepo, webhookCredentialsRepo } from './repos/webhook-credentials.js';
import { type WebhookSecretsRepo, webhookSecretsRepo } from './repos/webhook-secrets.js';
import { type WebhookSigningKeysRepo, webhookSigningKeysRepo } from './repos/webhook-signing-keys.js';
import type { Dialect, Sql } from './sql.js';
import { openSqlite, type SqliteOptions } from './sqlite.js';
import type { JobKind } from './types.js';

/**
 * Pool settings of a PostgreSQL storage (the host's `PLATFORM_PG_*` settings): connections at most, the
 * longest wait for one, the longest statement (defaults: `PG_DEFAULTS`).
 *
 * @example
 * const settings: PostgresPoolSettings = { poolSize: 20, connectTimeoutMs: 2000, statementTimeoutMs: 0 };
 * const storage = await openStorage({ databaseUrl: process.env.DATABASE_URL!, ...settings });
 */
export interface PostgresPoolSettings {
  poolSize?: number;
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
}

/**
 * Where the data lives: a SQLite file (embedded default) or a PostgreSQL database; and `secrets`, the
 * keys that seal the secrets stored in it (src/secrets/README.md). Without `secrets` values are stored
 * as given and a sealed one cannot be opened (storage tests; the host always passes its key ring).
 */
export type StorageOptions = (
  | {
      sqlitePath: string;
      busyTimeoutMs?: number;
      writerLock?: SqliteOptions['writerLock'];
      synchronous?: SqliteOptions['synchronous'];
    }
  | ({
      databaseUrl: string;
      schema?: string;
      /** See `PostgresOptions.synchronousCommit` (postgres.ts). Default true. */
      synchronousCommit?: boolean;
    } & PostgresPoolSettings)
) & {
  secrets?: KeyRing;
  /** See `SqliteOptions.checkTransactions`: using `storage` inside its own transaction throws. Default true. */
  checkTransactions?: boolean;
};

/** The repositories; the same set exists on the storage and on a transaction handle. */
export interface Repositories {
  readonly dialect: Dialect;
  readonly integrations: IntegrationsRepo;
  readonly installations: InstallationsRepo;
  readonly webhookSecrets: WebhookSecretsRepo;
  /** Seals what is stored in plaintext or under an old key (run at every start: upgrade and rotation). */
  readonly secretsAtRest: SecretsAtRestRepo;
  /**
   * The box the repositories seal and open stored secrets with: a new secret a feature stores goes
   * through `secrets.seal` / `secrets.open` (src/secrets/README.md).
   */
  readonly secrets: SecretBox;
  /** ed25519 key pairs of installations signing with `ed25519` (migration 15; private keys sealed). */
  readonly webhookSigningKeys: WebhookSigningKeysRepo;
  /** Webhook endpoints' write-only values (custom header values, auth secrets): the one place they are kept. */
  readonly webhookCredentials: WebhookCredentialsRepo;
  readonly events: EventsRepo;
  readonly jobs: JobsRepo;
  readonly invocationLogs: InvocationLogsRepo;
  readonly settings: SettingsRepo;
  readonly assets: AssetsRepo;
  readonly documents: DocumentsRepo;
  readonly organizations: OrganizationsRepo;
  readonly accessTokens: AccessTokensRepo;
  readonly audit: AuditRepo;
  /** Per-minute and per-hour delivery figures (docs/operations.md "Charts"). */
  readonly deliveryStats: DeliveryStatsRepo;
  /** Failing and disabled webhook endpoints (docs/contracts.md "Endpoint health"). */
  readonly endpointHealth: EndpointHealthRepo;
  /**
   * Runs `fn` atomically: everything done through `tx` commits together or not at all (a throw rolls back).
   * Inside `fn` use only `tx` (using the outer storage there throws `StorageError('invalid')` where
   * transactions are checked, `checkTransactions`; on SQLite it would otherwise deadlock). Called on a
   * transaction handle, it opens a savepoint.
   */
  transaction<T>(fn: (tx: StorageTx) => Promise<T>): Promise<T>;
}

/** The handle passed to `storage.transaction(fn)`; valid only until `fn` settles. */
export type StorageTx = Repositories;

/** An open storage. Close it when done. */
export interface Storage extends Repositories {
  /** The migration versions applied when this storage was opened (empty when already up to date). */
  readonly appliedMigrations: readonly number[];
  /**
   * Hears the queue signals of one job kind from the other hosts on the same database (PostgreSQL: LISTEN
   * on a dedicated connection that reconnects by itself; SQLite, one host: nothing). See queue-signals.ts.
   */
  listenQueue(kind: JobKind, handlers: QueueListenerHandlers): QueueListener;
  close(): Promise<void>;
}

function repositories(sql: Sql, box: SecretBox): Repositories {
  return {
    dialect: sql.dialect,
    integrations: integrationsRepo(sql, box),
    installations: installationsRepo(sql, box),
    webhookSecrets: webhookSecretsRepo(sql, box),
    webhookSigningKeys: webhookSigningKeysRepo(sql, box),
    webhookCredentials: webhookCredentialsRepo(sql, box),
    secretsAtRest: secretsAtRestRepo(sql, box),
    secrets: box,
    events: eventsRepo(sql),
    jobs: { ...queueRepo(sql), ...deliveriesRepo(sql) },
    invocationLogs: invocationLogsRepo(sql),
    settings: settingsRepo(sql, box),
    assets: assetsRepo(sql),
    documents: documentsRepo(sql),
    organizations: organizationsRepo(sql),
    accessTokens: accessTokensRepo(sql),
    audit: auditRepo(sql),
    deliveryStats: deliveryStatsRepo(sql),
    endpointHealth: endpointHealthRepo(sql),
    transaction: (fn) => sql.transaction((tx) => fn(repositories(tx, box))),
  };
}

/**
 * Opens the storage and applies pending migrations. SQLite: the file (and its folder) is created as needed.
 * PostgreSQL: `schema` (optional) is created when missing and used as search_path. Throws
 * `StorageError('unavailable')` with a clear message when the database cannot be reached.
 *
 * @example
 * const storage = await openStorage({ sqlitePath: './.platform/platform.db' });
 * // or: await openStorage({ databaseUrl: process.env.DATABASE_URL! });
 * await storage.transaction(async (tx) => {
 *   const { inserted } = await tx.events.insertIfAbsent({ eventId: 'evt_1', type: event.type, payload: event, siteId: 's1' });
 *   if (inserted) await tx.jobs.enqueue([{ kind: 'deliver', installationId: 'inst_1', eventId: 'evt_1', payload: {} }]);
 * });
 * await storage.close();
 */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  const box = options.secrets ? createSecretBox(options.secrets) : NO_KEY_BOX;
  const checks =
    options.checkTransactions === undefined ? {} : { checkTransactions: options.checkTransactions };
  const sql =
    'sqlitePath' in options
      ? openSqlite(options.sqlitePath, {
          ...(options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }),
          ...(options.writerLock === undefined ? {} : { writerLock: options.writerLock }),
          ...(options.synchronous === undefined ? {} : { synchronous: options.synchronous }),
          ...checks,
        })
      : await openPostgres(options.databaseUrl, {
          ...(options.schema === undefined ? {} : { schema: options.schema }),
          ...(options.poolSize === undefined ? {} : { max: options.poolSize }),
          ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
          ...(options.statementTimeoutMs === undefined
            ? {}
            : { statementTimeoutMs: options.statementTimeoutMs }),
          ...(options.synchronousCommit === undefined
            ? {}
            : { synchronousCommit: options.synchronousCommit }),
          ...checks,
        });
  let appliedMigrations: number[];
  try {
    appliedMigrations = await migrate(
      sql,
      'schema' in options && options.schema ? { schema: options.schema } : {},
    );
  } catch (error) {
    await sql.close().catch(() => undefined);
    throw error;
  }
  const listenQueue = (kind: JobKind, handlers: QueueListenerHandlers): QueueListener =>
    'databaseUrl' in options
      ? listenForSignals(options.databaseUrl, options.schema ?? '', kind, handlers)
      : silentListener;
  return { ...repositories(sql, box), appliedMigrations, listenQueue, close: () => sql.close() };
}
