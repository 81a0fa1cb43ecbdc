/** JSON value as stored in TEXT columns. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A published integration version. `bundle` is the ESM source run in the sandbox. */
export interface IntegrationRecord {
  name: string;
  version: string;
  title: string;
  manifest: Record<string, unknown>;
  bundle: string;
  bundleHash: string;
  envelopeVersion: 'v1';
  signingSecret: string;
  secrets: Record<string, string>;
  firstParty: boolean;
  devMode: boolean;
  /** The uploaded image files of the manifest (`icon`, `previewImages`): path as written there -> asset hash. */
  assets?: Record<string, string>;
  createdAt: number;
}

/** The document of a space (docs/documents.md): its nodes as JSON, and the revision of the last save. */
export interface SpaceDocumentRecord {
  spaceId: string;
  nodes: Json[];
  /** 1 after the first save, +1 per save. */
  revision: number;
  updatedAt: number;
}

/** An image file of an integration (icon or preview), stored once by the SHA-256 of its bytes. */
export interface AssetRecord {
  /** SHA-256 of `data`, lowercase hex. */
  hash: string;
  contentType: string;
  data: Buffer;
  createdAt: number;
}

export type InstallationTarget = 'organization' | 'space' | 'site';
export type InstallationStatus = 'pending' | 'active' | 'paused';

/** Which spaces an organization installation covers (`space_selection` of the contracts). */
export interface SpaceSelection {
  mode: 'all' | 'selected';
  spaces: string[];
}

/** An installation. The API token itself is never stored, only its SHA-256 hex `tokenHash`. */
export interface InstallationRecord {
  id: string;
  integrationName: string;
  target: InstallationTarget;
  spaceId: string | null;
  siteId: string | null;
  organizationId: string | null;
  /**
   * The organization that owns the installation (sees and manages it; docs/security.md "Organizations"):
   * the owner of its space or site in the directory when it was made, or its organization. Null: made by
   * the operator where no owner was known; only the operator sees it until the directory names one.
   */
  ownerOrganization: string | null;
  configuration: Record<string, unknown>;
  status: InstallationStatus;
  tokenHash: string;
  externalIds: string[];
  spaceSelection: SpaceSelection;
  createdAt: number;
  updatedAt: number;
}

/** An event accepted from upstream (`POST /v1/events`), kept for idempotency and redelivery. */
export interface EventRecord {
  eventId: string;
  type: string;
  payload: Record<string, unknown>;
  spaceId: string | null;
  siteId: string | null;
  receivedAt: number;
}

/** `invoke` = envelope dispatch to an integration (`job_` ids), `deliver` = webhook delivery (`dlv_` ids). */
export type JobKind = 'invoke' | 'deliver';

/** What a queue signal says (see queue-signals.ts): jobs of `kind` fall due at `dueAt` (ms since the epoch). */
export interface QueueSignal {
  kind: JobKind;
  dueAt: number;
}
/**
 * `held`: a first attempt of an installation whose endpoint is slow now, kept out of the due-time index the
 * claims scan (claimed per installation with `claimHeld`, or made `queued` again with `unhold`). Shown as
 * `queued` through the API.
 */
export type JobState = 'queued' | 'held' | 'running' | 'succeeded' | 'failed' | 'exhausted' | 'cancelled';
export type TerminalJobState = 'succeeded' | 'failed' | 'exhausted';

/** One recorded attempt of a job. */
export interface JobAttempt {
  series: number;
  number: number;
  startedAt: number;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  /** First 4096 bytes (UTF-8) of the response body. */
  responseExcerpt: string | null;
}

/** A queued unit of outbound work. */
export interface JobRecord {
  id: string;
  kind: JobKind;
  installationId: string;
  eventId: string | null;
  payload: Record<string, unknown>;
  state: JobState;
  /** 1-based; +1 per manual redelivery. */
  series: number;
  /** Attempts recorded in the current series (advanced by `finishAttempt`). */
  attempt: number;
  runAt: number;
  leaseUntil: number | null;
  /** Set by `claim`; pass the claimed job (or its token) to `complete`/`reschedule` to guard against takeover. */
  leaseToken: string | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

/** A job with its attempts (all series, oldest first). */
export interface JobWithAttempts extends JobRecord {
  attempts: JobAttempt[];
}

export type LogLevel = 'info' | 'warn' | 'error' | 'debug';

/** One line an integration logged during an invocation. */
export interface LogLine {
  level: LogLevel;
  message: string;
  time: number;
}

/** One invocation of an integration, with what it logged. */
export interface InvocationLogRecord {
  id: string;
  installationId: string | null;
  integrationName: string;
  eventType: string;
  eventId: string | null;
  /** HTTP status of the runtime's answer, or 'error' when none came back. */
  status: number | 'error';
  durationMs: number;
  lines: LogLine[];
  createdAt: number;
}
