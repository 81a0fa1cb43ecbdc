/**
 * The host's adapter of the delivery core (`../`): the engine on the durable queue (queue-engine.ts), the
 * delivery thread (thread.ts, its entry thread-entry.ts, its messages thread-protocol.ts), the slots it
 * shares with the main thread (slots.ts), the hand-over of first attempts (its ticket in thread.ts, its interface in port.ts), who knows which
 * installations are slow (slow-installations.ts), and the port the host's services see (port.ts).
 *
 * @example
 * import { startDelivery } from './delivery/host/index.js';
 * const runner = await startDelivery(ctx, storageOptions, HOST_VERSION);
 */
export {
  type DeliveryHandOff,
  type DeliveryHost,
  type DeliveryPort,
  type HandOffTicket,
  lateDeliveryPort,
  noDelivery,
  noHandOff,
} from './port.js';
export {
  type DeliveryDeps,
  type DeliveryLog,
  deliverySocketsPerOrigin,
  HELD_SWEEP_MS,
  type QueuedDeliveryEngine,
  startDeliveryEngine,
} from './queue-engine.js';
export type { DeliveryRunner } from './runner.js';
export { DeliverySlots } from './slots.js';
export { slowInstallations } from './slow-installations.js';
export { startDelivery } from './start.js';
export {
  DeliveryThreadError,
  type DeliveryThreadOptions,
  reserveHandOff,
  startDeliveryThread,
} from './thread.js';
export type { DeliveryStorageOptions, DeliveryThreadData } from './thread-protocol.js';
