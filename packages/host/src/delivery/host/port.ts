import type { Logger } from 'pino';
import type { HostConfig } from '../../config.js';
import type { AddressPolicy } from '../../net/index.js';
import type { Storage } from '../../storage/index.js';
import type { HostTracing } from '../../tracing/index.js';
import type { DeliveryHandOff } from './hand-off.js';

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
