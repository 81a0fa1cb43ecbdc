import type { Logger } from 'pino';
import type { Storage } from '../storage/index.js';

/** What {@link pruneOnce} deleted. */
export interface Pruned {
  jobs: number;
  events: number;
  logs: number;
  /** Audit log entries older than the audit retention. */
  audit: number;
  /** Portal sessions that expired more than a day ago. */
  portalSessions: number;
}

/** An expired portal session is kept a day, so its link still says "expired" rather than "not valid". */
const PORTAL_SESSION_KEEP_MS = 86_400_000;

const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Deletes what is older than `before`: deliveries and invocations in a final state (with their attempts),
 * accepted events, invocation logs (`before` null: none of these); audit log entries older than
 * `audit.before` (null: none); portal sessions expired more than a day before `audit.now`. In batches of `batch` rows, one short transaction each, yielding to
 * the event loop in between, so accepting events goes on meanwhile. Queued and running jobs stay.
 *
 * @example
 * const pruned = await pruneOnce(storage, Date.now() - 30 * 86_400_000); // { jobs, events, logs, audit, portalSessions }
 */
export async function pruneOnce(
  storage: Storage,
  before: number | null,
  batch = 1000,
  audit: { before: number | null; now: number } = { before: null, now: Date.now() },
): Promise<Pruned> {
  const drain = async (prune: (limit: number) => Promise<number>) => {
    let total = 0;
    for (;;) {
      const deleted = await prune(batch);
      total += deleted;
      if (deleted < batch) return total;
      await yieldToIo();
    }
  };
  const older = async (prune: (before: number, limit: number) => Promise<number>, cut: number | null) =>
    cut === null ? 0 : drain((limit) => prune(cut, limit));
  const jobs = await older((b, l) => storage.jobs.prune(b, l), before);
  const events = await older((b, l) => storage.events.prune(b, l), before);
  const logs = await older((b, l) => storage.invocationLogs.prune(b, l), before);
  const auditDeleted = await older((b, l) => storage.audit.deleteOlderThan(b, l), audit.before);
  const portalSessions = await storage.accessTokens.pruneSessions(audit.now - PORTAL_SESSION_KEEP_MS);
  return { jobs, events, logs, audit: auditDeleted, portalSessions };
}

/** Options of {@link startRetention}. */
export interface RetentionOptions {
  storage: Storage;
  logger: Pick<Logger, 'info' | 'error'>;
  /** Keep this long (ms): older finished jobs, events and logs are deleted; 0 keeps them. */
  retentionMs: number;
  /** Keep audit log entries this long (ms; `PLATFORM_AUDIT_RETENTION_DAYS`); 0 or absent keeps them. */
  auditRetentionMs?: number;
  /** Time between two prunes; the first runs `firstDelayMs` after the start. Default 1 hour. */
  intervalMs?: number;
  /** Default 60 s: after the start-up work, not during it. */
  firstDelayMs?: number;
  /** Rows per transaction. Default 1000. */
  batch?: number;
  /** Clock (ms). Default `Date.now`. */
  now?: () => number;
}

/**
 * Runs {@link pruneOnce} now and then (the host's retention, `PLATFORM_RETENTION_DAYS`). Logs what each
 * run deleted; a failed run is logged and the next one tries again. `stop()` cancels the timer and waits
 * for a run in progress.
 *
 * @example
 * const retention = startRetention({ storage, logger, retentionMs: 30 * 86_400_000 });
 * await retention.stop();
 */
export function startRetention(options: RetentionOptions): { stop(): Promise<void> } {
  const { storage, logger, retentionMs } = options;
  const intervalMs = options.intervalMs ?? 3_600_000;
  const now = options.now ?? Date.now;
  let running: Promise<void> | undefined;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const run = async () => {
    const at = now();
    const before = retentionMs > 0 ? at - retentionMs : null;
    const auditMs = options.auditRetentionMs ?? 0;
    try {
      const pruned = await pruneOnce(storage, before, options.batch, {
        before: auditMs > 0 ? at - auditMs : null,
        now: at,
      });
      if (pruned.jobs + pruned.events + pruned.logs + pruned.audit + pruned.portalSessions > 0) {
        logger.info(
          { ...pruned, before: before === null ? null : new Date(before).toISOString() },
          'retention: deleted old records',
        );
      }
    } catch (error) {
      logger.error({ err: error }, 'retention: pruning failed; the next run tries again');
    }
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = run().finally(() => {
        running = undefined;
        schedule(intervalMs);
      });
    }, delay);
    timer.unref();
  };
  schedule(options.firstDelayMs ?? 60_000);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
