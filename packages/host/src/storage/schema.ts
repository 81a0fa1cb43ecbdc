/**
 * One versioned schema change. `sql` is portable, or per dialect where that cannot be avoided.
 * Migrations are append-only: never edit one that has shipped, add the next version.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string | { readonly sqlite: string; readonly postgres: string };
}

/** The table of migration 15, the same on both dialects (its triggers differ). */
const SIGNING_KEYS_TABLE = `CREATE TABLE webhook_signing_keys (
  installation_id TEXT PRIMARY KEY REFERENCES installations (id) ON DELETE CASCADE,
  private_key TEXT NOT NULL,
  public_key TEXT NOT NULL,
  created_at BIGINT NOT NULL
);`;

/** The statements of migration 13 that are the same on both dialects (its tables, indexes and owners). */
const ORGANIZATION_TABLES = `CREATE TABLE organizations (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at BIGINT NOT NULL);
CREATE TABLE organization_tokens (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  expires_at BIGINT,
  revoked_at BIGINT,
  last_used_at BIGINT,
  created_by TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX organization_tokens_org ON organization_tokens (organization_id, created_at);
CREATE TABLE resource_owners (
  kind TEXT NOT NULL,
  resource_id TEXT NOT NULL,
  organization_id TEXT NOT NULL REFERENCES organizations (id),
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (kind, resource_id)
);
CREATE INDEX resource_owners_org ON resource_owners (organization_id, kind);
CREATE TABLE install_links (name TEXT PRIMARY KEY, link TEXT NOT NULL, updated_at BIGINT NOT NULL);
CREATE TABLE portal_sessions (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  organization_id TEXT,
  installation_id TEXT,
  expires_at BIGINT NOT NULL,
  revoked_at BIGINT,
  created_by TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  at BIGINT NOT NULL,
  actor TEXT NOT NULL,
  actor_organization TEXT,
  token_id TEXT,
  token_name TEXT,
  organization_id TEXT,
  action TEXT NOT NULL,
  resource_type TEXT NOT NULL,
  resource_id TEXT NOT NULL,
  changes TEXT NOT NULL
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_org ON audit_log (organization_id, at);
ALTER TABLE installations ADD COLUMN owner_organization TEXT;
CREATE INDEX installations_owner ON installations (owner_organization, created_at);
CREATE INDEX invocation_logs_integration ON invocation_logs (integration_name, created_at);
UPDATE installations SET owner_organization = organization_id WHERE target = 'organization';
`;

/**
 * The ordered migrations of the host database. Types: TEXT, INTEGER (booleans 0/1), BIGINT (ms timestamps);
 * since migration 8 every other number column is BIGINT on PostgreSQL too, so both dialects store the same
 * range (safe integers, docs/contracts.md "Numbers in storage").
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE integrations (
  name TEXT NOT NULL,
  version TEXT NOT NULL,
  title TEXT NOT NULL,
  manifest TEXT NOT NULL,
  bundle TEXT NOT NULL,
  bundle_hash TEXT NOT NULL,
  envelope_version TEXT NOT NULL,
  signing_secret TEXT NOT NULL,
  secrets TEXT NOT NULL,
  first_party INTEGER NOT NULL,
  dev_mode INTEGER NOT NULL,
  publish_seq BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (name, version),
  UNIQUE (name, publish_seq)
);

CREATE TABLE installations (
  id TEXT PRIMARY KEY,
  integration_name TEXT NOT NULL,
  target TEXT NOT NULL,
  space_id TEXT,
  site_id TEXT,
  organization_id TEXT,
  configuration TEXT NOT NULL,
  status TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  external_ids TEXT NOT NULL,
  space_selection TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX installations_space ON installations (space_id, status);
CREATE INDEX installations_site ON installations (site_id, status);
CREATE INDEX installations_org ON installations (target, status, organization_id);
CREATE INDEX installations_integration ON installations (integration_name);

CREATE TABLE webhook_secrets (
  installation_id TEXT PRIMARY KEY REFERENCES installations (id) ON DELETE CASCADE,
  current_secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_expires_at BIGINT,
  updated_at BIGINT NOT NULL
);

CREATE TABLE events (
  event_id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  space_id TEXT,
  site_id TEXT,
  received_at BIGINT NOT NULL
);

CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  installation_id TEXT NOT NULL,
  event_id TEXT,
  payload TEXT NOT NULL,
  state TEXT NOT NULL,
  series INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  run_at BIGINT NOT NULL,
  lease_until BIGINT,
  lease_token TEXT,
  last_error TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  finished_at BIGINT
);
CREATE INDEX jobs_due ON jobs (state, run_at);
CREATE INDEX jobs_installation ON jobs (installation_id, created_at);
CREATE INDEX jobs_event ON jobs (event_id);

CREATE TABLE job_attempts (
  job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  series INTEGER NOT NULL,
  number INTEGER NOT NULL,
  started_at BIGINT NOT NULL,
  duration_ms INTEGER NOT NULL,
  status_code INTEGER,
  error TEXT,
  response_excerpt TEXT,
  PRIMARY KEY (job_id, series, number)
);

CREATE TABLE invocation_logs (
  id TEXT PRIMARY KEY,
  installation_id TEXT,
  integration_name TEXT NOT NULL,
  event_type TEXT NOT NULL,
  event_id TEXT,
  status TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  lines TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX invocation_logs_installation ON invocation_logs (installation_id, created_at);

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);
`,
  },
  {
    version: 2,
    name: 'index of due retries (claimed before first attempts)',
    sql: `CREATE INDEX jobs_retry_due ON jobs (state, run_at) WHERE attempt > 0;`,
  },
  {
    version: 3,
    name: 'index of due retries: queued ones only (finished jobs stay out of it)',
    sql: `DROP INDEX jobs_retry_due;
CREATE INDEX jobs_retry_queued ON jobs (run_at, id) WHERE state = 'queued' AND attempt > 0;`,
  },
  {
    version: 4,
    name: 'drop jobs_event: no query looks jobs up by event, and every accepted job paid for its entry',
    sql: `DROP INDEX jobs_event;`,
  },
  {
    version: 5,
    name: 'retention: events and invocation logs by age (new rows append to both indexes)',
    sql: `CREATE INDEX events_received ON events (received_at);
CREATE INDEX invocation_logs_created ON invocation_logs (created_at);`,
  },
  {
    version: 6,
    name: 'assets: icon and preview images, stored once by content hash; each integration version maps its manifest paths to them',
    sql: `ALTER TABLE integrations ADD COLUMN assets TEXT NOT NULL DEFAULT '{}';
CREATE TABLE assets (
  hash TEXT PRIMARY KEY,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  data TEXT NOT NULL,
  created_at BIGINT NOT NULL
);`,
  },
  {
    version: 7,
    name: "held deliveries: a slow endpoint's first attempts, per installation, outside the due-time index",
    sql: `CREATE INDEX jobs_held ON jobs (installation_id, run_at, id) WHERE state = 'held';`,
  },
  {
    version: 8,
    name: 'every number column is 64-bit on PostgreSQL too (INTEGER is 32-bit there, 64-bit in SQLite)',
    sql: {
      sqlite: 'SELECT 1;',
      postgres: `ALTER TABLE jobs ALTER COLUMN series TYPE BIGINT, ALTER COLUMN attempt TYPE BIGINT;
ALTER TABLE job_attempts ALTER COLUMN series TYPE BIGINT, ALTER COLUMN number TYPE BIGINT,
  ALTER COLUMN duration_ms TYPE BIGINT, ALTER COLUMN status_code TYPE BIGINT;
ALTER TABLE invocation_logs ALTER COLUMN duration_ms TYPE BIGINT;
ALTER TABLE assets ALTER COLUMN size TYPE BIGINT;`,
    },
  },
  {
    version: 9,
    name: "space documents: the editor's page of a space (text and blocks with their props), with a revision for compare-and-set saves",
    sql: `CREATE TABLE space_documents (
  space_id TEXT PRIMARY KEY,
  document TEXT NOT NULL,
  revision BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);`,
  },
  {
    version: 10,
    name: 'the queue read in index order whatever the planner knows: one partial index per claim lane (kind first) and one of finished jobs for pruning, instead of jobs_due over every state',
    // Each lane of the claim and each part of nextDueAt is one range of one of these, read in order and
    // cut at the claim's limit: the cost does not grow with the backlog, and the right index is the only
    // one that fits, whatever the planner's statistics say (storage/README.md, "The queue's indexes").
    sql: `DROP INDEX jobs_retry_queued;
DROP INDEX jobs_due;
CREATE INDEX jobs_first_due ON jobs (kind, run_at, id) WHERE state = 'queued' AND attempt = 0;
CREATE INDEX jobs_retry_due ON jobs (kind, run_at, id) WHERE state = 'queued' AND attempt > 0;
CREATE INDEX jobs_leases ON jobs (kind, lease_until, id) WHERE state = 'running';
CREATE INDEX jobs_finished ON jobs (run_at) WHERE state IN ('succeeded', 'failed', 'exhausted', 'cancelled');`,
  },
  {
    version: 11,
    name: 'PostgreSQL vacuums the queue after 10 000 changed rows plus 1 % of the table, not a fifth of it',
    // Every delivery leaves two or three dead row versions whose index entries claims step over until
    // VACUUM; with a long history the default threshold (20 % of the table) lets hundreds of thousands
    // pile up (packages/host/README.md, "Running on PostgreSQL"). SQLite updates in place: nothing to do.
    sql: {
      sqlite: 'SELECT 1;',
      postgres: `ALTER TABLE jobs SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 10000,
  autovacuum_analyze_scale_factor = 0.02);`,
    },
  },
  {
    version: 12,
    name: 'routing epoch: a counter every change of installations, integrations or webhook secrets moves on, so a host may keep routes and delivery targets in memory and check them at its next write',
    // Triggers, not the repositories, move it on: no write path can forget it (docs/architecture.md,
    // "Accepting events"). One row; readers never wait for it (MVCC / WAL).
    sql: {
      sqlite: `CREATE TABLE routing_epoch (id INTEGER PRIMARY KEY CHECK (id = 1), epoch BIGINT NOT NULL);
INSERT INTO routing_epoch (id, epoch) VALUES (1, 0);
CREATE TRIGGER installations_routing_insert AFTER INSERT ON installations BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;
CREATE TRIGGER installations_routing_update AFTER UPDATE ON installations BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;
CREATE TRIGGER installations_routing_delete AFTER DELETE ON installations BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;
CREATE TRIGGER integrations_routing_insert AFTER INSERT ON integrations BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;
CREATE TRIGGER integrations_routing_update AFTER UPDATE ON integrations BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;
CREATE TRIGGER integrations_routing_delete AFTER DELETE ON integrations BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;
CREATE TRIGGER webhook_secrets_routing_insert AFTER INSERT ON webhook_secrets BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;
CREATE TRIGGER webhook_secrets_routing_update AFTER UPDATE ON webhook_secrets BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;
CREATE TRIGGER webhook_secrets_routing_delete AFTER DELETE ON webhook_secrets BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;`,
      postgres: `CREATE TABLE routing_epoch (id INTEGER PRIMARY KEY CHECK (id = 1), epoch BIGINT NOT NULL);
INSERT INTO routing_epoch (id, epoch) VALUES (1, 0);
CREATE FUNCTION bump_routing_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1;
  RETURN NULL;
END $$;
CREATE TRIGGER installations_routing AFTER INSERT OR UPDATE OR DELETE ON installations FOR EACH STATEMENT EXECUTE FUNCTION bump_routing_epoch();
CREATE TRIGGER integrations_routing AFTER INSERT OR UPDATE OR DELETE ON integrations FOR EACH STATEMENT EXECUTE FUNCTION bump_routing_epoch();
CREATE TRIGGER webhook_secrets_routing AFTER INSERT OR UPDATE OR DELETE ON webhook_secrets FOR EACH STATEMENT EXECUTE FUNCTION bump_routing_epoch();`,
    },
  },
  {
    version: 13,
    name: 'organizations: tokens, the directory of who owns each space and site, installation owners, install links, portal sessions and the audit log',
    // docs/security.md "Organizations". Installations made before this version: an organization
    // installation belongs to its organization; a space or site one to nobody but the operator until the
    // directory records the space's or site's owner (which adopts it). Organizations named by published
    // manifests and organization installations are created here, so nothing is left without its owner.
    sql: {
      sqlite: `${ORGANIZATION_TABLES}INSERT INTO organizations (id, name, created_at)
  SELECT DISTINCT json_extract(manifest, '$.organization'), json_extract(manifest, '$.organization'), CAST(strftime('%s', 'now') AS INTEGER) * 1000
    FROM integrations WHERE json_extract(manifest, '$.organization') IS NOT NULL
  ON CONFLICT (id) DO NOTHING;
INSERT INTO organizations (id, name, created_at)
  SELECT DISTINCT organization_id, organization_id, CAST(strftime('%s', 'now') AS INTEGER) * 1000
    FROM installations WHERE organization_id IS NOT NULL
  ON CONFLICT (id) DO NOTHING;
CREATE TRIGGER resource_owners_routing_insert AFTER INSERT ON resource_owners BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;
CREATE TRIGGER resource_owners_routing_update AFTER UPDATE ON resource_owners BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;
CREATE TRIGGER resource_owners_routing_delete AFTER DELETE ON resource_owners BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;`,
      postgres: `${ORGANIZATION_TABLES}INSERT INTO organizations (id, name, created_at)
  SELECT DISTINCT manifest::jsonb ->> 'organization', manifest::jsonb ->> 'organization', (extract(epoch from now()) * 1000)::bigint
    FROM integrations WHERE manifest::jsonb ->> 'organization' IS NOT NULL
  ON CONFLICT (id) DO NOTHING;
INSERT INTO organizations (id, name, created_at)
  SELECT DISTINCT organization_id, organization_id, (extract(epoch from now()) * 1000)::bigint
    FROM installations WHERE organization_id IS NOT NULL
  ON CONFLICT (id) DO NOTHING;
CREATE TRIGGER resource_owners_routing AFTER INSERT OR UPDATE OR DELETE ON resource_owners FOR EACH STATEMENT EXECUTE FUNCTION bump_routing_epoch();`,
    },
  },
  {
    version: 14,
    name: 'delivery statistics: per-minute and per-hour figures rolled up from the attempts, and the index that finds a minute of attempts',
    // docs/operations.md "Charts". The index costs each recorded attempt one entry at the right edge of a
    // B-tree (started_at grows); the rollup (stats/rollup.ts) reads one minute of attempts through it.
    // installation_id '' is the host-wide row. Histograms: stats/histogram.ts.
    sql: `CREATE INDEX job_attempts_started ON job_attempts (started_at);
CREATE TABLE delivery_stats (
  resolution_ms BIGINT NOT NULL,
  installation_id TEXT NOT NULL,
  bucket_at BIGINT NOT NULL,
  attempts BIGINT NOT NULL,
  succeeded BIGINT NOT NULL,
  retried BIGINT NOT NULL,
  failed BIGINT NOT NULL,
  duration_hist TEXT NOT NULL,
  first_attempt_hist TEXT NOT NULL,
  backlog_queued BIGINT,
  backlog_due BIGINT,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (resolution_ms, installation_id, bucket_at)
);
CREATE INDEX delivery_stats_age ON delivery_stats (resolution_ms, bucket_at);`,
  },
  {
    version: 15,
    name: 'webhook signing keys: the ed25519 key pair of an installation that signs with the ed25519 scheme (Standard Webhooks v1a)',
    // docs/contracts.md "Signature schemes". The private key is a secret like webhook_secrets' (the one
    // place it is stored: repos/webhook-signing-keys.ts); the public key is shown to anyone who may read
    // the installation. A change moves the routing epoch on, like a secret's, so cached targets re-read it.
    sql: {
      sqlite: `${SIGNING_KEYS_TABLE}
CREATE TRIGGER webhook_signing_keys_routing_insert AFTER INSERT ON webhook_signing_keys BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;
CREATE TRIGGER webhook_signing_keys_routing_update AFTER UPDATE ON webhook_signing_keys BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;
CREATE TRIGGER webhook_signing_keys_routing_delete AFTER DELETE ON webhook_signing_keys BEGIN UPDATE routing_epoch SET epoch = epoch + 1 WHERE id = 1; END;`,
      postgres: `${SIGNING_KEYS_TABLE}
CREATE TRIGGER webhook_signing_keys_routing AFTER INSERT OR UPDATE OR DELETE ON webhook_signing_keys FOR EACH STATEMENT EXECUTE FUNCTION bump_routing_epoch();`,
    },
  },
  {
    version: 16,
    name: "webhook endpoints' write-only values: custom header values and auth secrets, apart from the configuration",
    // docs/contracts.md "Endpoint settings"; storage/repos/webhook-credentials.ts. Written only with an
    // update of the installation (same transaction): the installations trigger moves the routing epoch on.
    sql: `CREATE TABLE webhook_credentials (
  installation_id TEXT PRIMARY KEY,
  credentials TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);`,
  },
  {
    version: 17,
    name: 'endpoint health: webhook endpoints failing (a run of exhausted deliveries), disabled, or enabled again',
    // docs/contracts.md "Endpoint health". Only endpoints that are not healthy have a row (few); a disabled
    // endpoint's deliveries are kept as `held` jobs in `jobs`.
    sql: `CREATE TABLE endpoint_health (
  installation_id TEXT PRIMARY KEY,
  failing_since BIGINT,
  disabled_at BIGINT,
  enabled_at BIGINT,
  updated_at BIGINT NOT NULL
);`,
  },
  {
    version: 18,
    name: 'webhook signing keys: the previous ed25519 key pair of an installation during a key rotation, and until when it signs',
    // docs/contracts.md "Signature schemes". previous_private_key is sealed like private_key
    // (src/secrets/README.md); NULL outside a rotation.
    sql: `ALTER TABLE webhook_signing_keys ADD COLUMN previous_private_key TEXT;
ALTER TABLE webhook_signing_keys ADD COLUMN previous_public_key TEXT;
ALTER TABLE webhook_signing_keys ADD COLUMN previous_expires_at BIGINT;`,
  },
  {
    version: 19,
    name: "jobs: each job's home, the host process that queued it or last claimed it (first attempts are its home's first)",
    // docs/architecture.md "Claims"; storage/queue-signals.ts HOME_GRACE_MS. Written on PostgreSQL only
    // (several hosts); NULL (no home: any host at once) on SQLite and for jobs queued before this migration.
    sql: 'ALTER TABLE jobs ADD COLUMN home TEXT;',
  },
];
