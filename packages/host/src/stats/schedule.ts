import type { Logger } from 'pino';
import type { Storage } from '../storage/index.js';
import { type RollupResult, rollupOnce } from './rollup.js';

/** Options of {@link startStatsRollup}. */
export interface StatsRollupOptions {
  storage: Storage;
  logger: Pick<Logger, 'info' | 'error' | 'debug'>;
  /** Time between two runs (`PLATFORM_STATS_INTERVAL_MS`, default 60 s). */
  intervalMs: number;
  /** How long after a minute ends its attempts may still be recorded (the delivery timeout and a margin). */
  settleMs: number;
  /** Clock (ms). Default `Date.now`. */
  now?: () => number;
}

/** The settings key of the last turn a host took at the rollup (`SettingsRepo.takeTurn`). */
export const ROLLUP_TURN_KEY = 'stats_rollup_turn';

/**
 * Runs the statistics rollup ({@link rollupOnce}) every `intervalMs`, the first one at once. With several
 * hosts on one PostgreSQL database, a host whose turn comes less than half an interval after another
 * host took one skips it (the result would be the same: the rollup recomputes, it never adds), so the
 * rollup's cost does not grow with the number of hosts. A failed run is
 * logged; the next one catches up. `runNow()` runs one at once (after any run in progress); `stop()` cancels
 * the timer and waits for a run in progress.
 *
 * @example
 * const stats = startStatsRollup({ storage, logger, intervalMs: 60_000, settleMs: 70_000 });
 * await stats.stop();
 */
export function startStatsRollup(options: StatsRollupOptions): {
  runNow(): Promise<RollupResult | null>;
  stop(): Promise<void>;
} {
  const { storage, logger, intervalMs, settleMs } = options;
  const now = options.now ?? Date.now;
  let running: Promise<RollupResult | null> = Promise.resolve(null);
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const run = async (skipIfRecent: boolean): Promise<RollupResult | null> => {
    try {
      const at = now();
      // One host's turn per half interval: the others skip it (one statement decides, so hosts that start
      // together do not all roll up at once).
      if (skipIfRecent && !(await storage.settings.takeTurn(ROLLUP_TURN_KEY, at, intervalMs / 2)))
        return null;
      const result = await rollupOnce(storage, at, { settleMs });
      logger.debug({ ...result, ms: now() - at }, 'stats: rolled up');
      return result;
    } catch (error) {
      logger.error({ err: error }, 'stats: rollup failed; the next run catches up');
      return null;
    }
  };
  const enqueue = (skipIfRecent: boolean) => {
    const next = running.then(() => run(skipIfRecent));
    running = next;
    return next;
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      void enqueue(true).finally(() => schedule(intervalMs));
    }, delay);
    timer.unref();
  };
  schedule(0);
  return {
    runNow: () => enqueue(false),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
