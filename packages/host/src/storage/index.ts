export { isStorageError, StorageError, type StorageErrorCode } from './errors.js';
export { newId, newLeaseToken, newSortableId } from './ids.js';
export { type EventScope, installationMatches } from './matching.js';
export { isPgUnavailable, wrapPgError } from './pg-errors.js';
export { PG_DEFAULTS, postgresStatementsSent } from './postgres.js';
export type { QueueListener, QueueListenerHandlers, QueueSignal } from './queue-signals.js';
export { HomeHelp, type SignalledLoop, wakeOnSignals } from './queue-signals.js';
export type {
  AccessTokensRepo,
  OrganizationTokenRecord,
  PortalSessionRecord,
} from './repos/access-tokens.js';
export { type AssetsRepo, assetHash } from './repos/assets.js';
export type { AuditFilter, AuditRecord, AuditRepo } from './repos/audit.js';
export type { AttemptCursor, AttemptRow, DeliveryStatsRepo, StatsRow } from './repos/delivery-stats.js';
export type { DocumentsRepo } from './repos/documents.js';
export type {
  EndpointHealthFields,
  EndpointHealthRecord,
  EndpointHealthRepo,
} from './repos/endpoint-health.js';
export type { EventInput, EventsRepo, EventWithJobs, InsertWithJobsResult } from './repos/events.js';
export type {
  CreateInstallationInput,
  InstallationFilter,
  InstallationPatch,
  InstallationRoute,
  InstallationsRepo,
  RoutingRead,
} from './repos/installations.js';
export type { IntegrationMeta, IntegrationsRepo, PublishInput } from './repos/integrations.js';
export type { InvocationLogInput, InvocationLogsRepo } from './repos/invocation-logs.js';
/** The queue's and the delivery log's contract: every export of `repos/jobs-api.ts` is a type. */
export type * from './repos/jobs-api.js';
export type { OrganizationRecord, OrganizationsRepo, ResourceOwnerRecord } from './repos/organizations.js';
export type { ResealReport, SecretsAtRestRepo } from './repos/secrets-at-rest.js';
export type { SettingsRepo } from './repos/settings.js';
export type { StoredCredentials, WebhookCredentialsRepo } from './repos/webhook-credentials.js';
export type { DeliveryTargetRead, WebhookSecretsRepo } from './repos/webhook-secrets.js';
export type { WebhookSigningKeysRepo } from './repos/webhook-signing-keys.js';
export type { Migration } from './schema.js';
export { SharedCells } from './shared-cells.js';
export type { Dialect } from './sql.js';
export type { SqliteSynchronous } from './sqlite.js';
export {
  openStorage,
  type PostgresPoolSettings,
  type Repositories,
  type Storage,
  type StorageOptions,
  type StorageTx,
} from './storage.js';
export { systemTimerClock, type TimerClock } from './timer-clock.js';
export type * from './types.js';
export { walSyncsSoFar } from './wal-sync.js';
export { WRITER_LOCK_SLOTS, WriterLock } from './writer-lock.js';
