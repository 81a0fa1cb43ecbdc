import type { DeliveryPort } from './port.js';

/**
 * The running delivery engine, wherever it runs (its thread, or the main thread): the host's
 * {@link DeliveryPort} plus what only the host itself calls.
 */
export interface DeliveryRunner extends DeliveryPort {
  /** Deliveries were committed: look for due work now. */
  notify(): void;
  /** Stops claiming, waits for in-flight attempts, closes the engine's resources. */
  stop(): Promise<void>;
  /** How many installations the fair share holds for slow now. */
  slowCount(): number;
  /** The engine's metrics in Prometheus text ('' when it cannot answer now: not running, or too slow). */
  metrics(): Promise<string>;
}
