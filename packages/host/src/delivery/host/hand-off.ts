import type { JobRecord } from '../../storage/index.js';
import type { DeliverySlots } from './slots.js';

/**
 * Jobs handed straight to the delivery thread: the accepting transaction inserts them already leased
 * (`running`) for as many free slots of the engine as it {@link reserve}s, and after its commit
 * {@link HandOffTicket.deliver}s them, so no claim transaction and no wake-up round trip sits between
 * an accepted event and its first attempt. Nothing is reserved while the thread knows of queued due work
 * (retries, a backlog): new jobs then queue behind it.
 */
export interface DeliveryHandOff {
  /**
   * Takes free slots of the engine for the given deliveries (their installation ids, in order): one each
   * while slots are free, except for installations that are slow now (their deliveries wait in the queue,
   * where claims respect the installation's share); null when none is taken, work is queued, or the thread
   * is not running.
   *
   * @example
   * const ticket = handOff.reserve(jobs.map((job) => job.installationId));
   * // lease the jobs at ticket.admitted, commit, then ticket.deliver(records)
   */
  reserve(installationIds: readonly string[]): HandOffTicket | null;
}

/** Slots reserved by {@link DeliveryHandOff.reserve}: end it with exactly one of `deliver` or `release`. */
export interface HandOffTicket {
  /** Indexes (into the ids given to `reserve`, ascending) of the deliveries that got a slot. */
  readonly admitted: readonly number[];
  /**
   * After the commit: sends the leased jobs (at most `admitted.length`) to the engine, with the routing
   * epoch the write was checked at, if it was; unused slots are given back.
   * If the thread that granted the slots has ended meanwhile, the jobs stay leased and come back when the
   * lease expires, as after any crash.
   */
  deliver(records: JobRecord[], routingEpoch?: number): void;
  /** The jobs were not committed: gives every slot back. */
  release(): void;
}

/**
 * A hand-over ticket on shared slots (the runner's {@link DeliveryHandOff.reserve}): takes a free slot for
 * each delivery, in order, while the slots last, except those of installations the delivery thread
 * reported slow (they wait in the queue, where claims respect the installation's share); after the commit
 * `deliver` passes the leased records to `send` and gives back what was not used.
 *
 * @example
 * const ticket = reserveHandOff(slots, ids, (id) => slow.has(id), (jobs) => worker.postMessage({ type: 'adopt', jobs }));
 */
export function reserveHandOff(
  slots: DeliverySlots,
  installationIds: readonly string[],
  isSlow: (installationId: string) => boolean,
  send: (records: JobRecord[], routingEpoch?: number) => void,
): HandOffTicket | null {
  const wanted: number[] = [];
  for (let i = 0; i < installationIds.length; i++) {
    if (!isSlow(installationIds[i] as string)) wanted.push(i);
  }
  if (wanted.length === 0) return null;
  const granted = slots.reserve(wanted.length);
  if (granted === 0) return null;
  const admitted = wanted.slice(0, granted);
  let ended = false;
  return {
    admitted,
    deliver(records, routingEpoch) {
      if (ended) return;
      ended = true;
      const sent = records.slice(0, admitted.length);
      slots.give(admitted.length - sent.length);
      if (sent.length > 0) send(sent, routingEpoch);
    },
    release() {
      if (ended) return;
      ended = true;
      slots.give(admitted.length);
    },
  };
}
