import type { Logger } from 'pino';
import { SLOW_ATTEMPT_MS } from '../../jobs/fair-share.js';

/**
 * Which installations are slow, and who owns that knowledge (one owner per side):
 *
 * - **Delivery side** (the thread that runs the engine): the job loop's `FairShare` (jobs/fair-share.ts)
 *   decides and keeps the list (`FairShare.flagged`, read as `jobLoop.slowKeys()`); it says each change
 *   through `onSlow`. The queue engine (queue-engine.ts) reads that list for its held-deliveries sweep and
 *   passes each change on; it keeps no copy.
 * - **Accepting side** (the main thread: hand-over, holding new deliveries, the API): the tracker below,
 *   fed by those changes (a `slow` message from the delivery thread, or the engine's callback when it
 *   runs on the main thread). It is owned by the `DeliveryRunner` and reached through the context's
 *   `delivery` port (`isSlow`, `slowInstallations`); nothing else keeps a copy.
 *
 * The tracker logs each change for the operator: warn when slow, info when it recovers.
 *
 * @example
 * const slow = slowInstallations(logger, 16);
 * startDeliveryEngine(deps, dispatcher, version, undefined, slow.update);
 * slow.has('inst_1'); // true while its endpoint is slow
 */
export function slowInstallations(logger: Pick<Logger, 'warn' | 'info'>, share: number) {
  const slow = new Set<string>();
  return {
    has: (installationId: string): boolean => slow.has(installationId),
    /** How many installations are slow now. */
    count: (): number => slow.size,
    /** The installations slow now. */
    list: (): string[] => [...slow],
    update(installationId: string, isSlow: boolean): void {
      if (isSlow) {
        slow.add(installationId);
        logger.warn(
          { installation: installationId, maxInFlight: share },
          `webhook endpoint of installation ${installationId} is slow (an attempt is running past ${SLOW_ATTEMPT_MS} ms): at most ${share} of its deliveries in flight while it does, and for a minute if another one does within a minute`,
        );
      } else {
        slow.delete(installationId);
        logger.info(
          { installation: installationId },
          `webhook endpoint of installation ${installationId} is no longer slow`,
        );
      }
    },
  };
}
