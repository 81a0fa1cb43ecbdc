import type { Logger } from 'pino';
import type { HostConfig } from '../../config.js';
import type { AddressPolicy } from '../../net/index.js';
import type { JobRecord, Storage } from '../../storage/index.js';
import type { HostTracing } from '../../tracing/index.js';

/**
 * What webhook delivery needs of the host to start: the one port from `delivery/` to the host (nothing in
 * `delivery/` imports `services/`). The services' `HostContext` is one, handed over as it is.
 *
 * @example
 * const runner = await startDelivery(ctx, { sqlitePath }, '0.1.0'); // ctx: HostContext, seen as a DeliveryHost
 */
export interface DeliveryHost {
  readonly config: HostConfig;
  readonly storage: Storage;
  readonly logger: Logger;
  readonly policy: AddressPolicy;
  /** This thread's tracing; undefined when tracing is off. */
  readonly tracing?: HostTracing;
}

/**
 * Jobs handed straight to the delivery thread: the accepting transaction inserts them already leased
 * (`running`) for as many slots of the engine as it {@link reserve}s (free ones, or room in its runway to
 * wait for one: docs/architecture.md "The runway"), and after its commit
 * {@link HandOffTicket.deliver}s them, so no claim transaction and no wake-up round trip sits between
 * an accepted event and its first attempt. Nothing is reserved while queued due work waits for the thread's
 * slots (a backlog: its last claim came back full, or found none free): new jobs then queue behind it.
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
 * What the host's services see of delivery (the context's `delivery`): the hand-over of first attempts,
 * and which installations the engine's fair share holds for slow now (see slow-installations.ts).
 *
 * @example
 * const ticket = ctx.delivery.handOff.reserve(['inst_1']); // null: nothing handed over, the job queues
 * if (ctx.delivery.isSlow('inst_1')) job.hold = true;
 * ctx.delivery.slowInstallations(); // ['inst_1']
 */
export interface DeliveryPort {
  /** Hands first attempts straight to the engine; reserves nothing when the engine has no thread of its own. */
  readonly handOff: DeliveryHandOff;
  /**
   * Whether the engine's fair share holds the installation's endpoint for slow now (an attempt ran past
   * 500 ms within the last minute): at most its share of deliveries in flight.
   */
  isSlow(installationId: string): boolean;
  /** Every installation the fair share holds for slow now. */
  slowInstallations(): string[];
}

/** A hand-over that never reserves a slot: every delivery waits in the queue for a claim. */
export const noHandOff: DeliveryHandOff = { reserve: () => null };

/**
 * The port when nothing delivers (tests of services, or before the engine has started): no hand-over, and
 * no installation is slow.
 *
 * @example
 * const ctx: HostContext = { ...rest, delivery: noDelivery };
 */
export const noDelivery: DeliveryPort = {
  handOff: noHandOff,
  isSlow: () => false,
  slowInstallations: () => [],
};

/**
 * A port onto the port that `current()` returns once delivery has started ({@link noDelivery} before).
 *
 * @example
 * let runner: DeliveryRunner | undefined;
 * const delivery = lateDeliveryPort(() => runner);
 */
export function lateDeliveryPort(current: () => DeliveryPort | undefined): DeliveryPort {
  const port = () => current() ?? noDelivery;
  return {
    handOff: { reserve: (installationIds) => port().handOff.reserve(installationIds) },
    isSlow: (installationId) => port().isSlow(installationId),
    slowInstallations: () => port().slowInstallations(),
  };
}
