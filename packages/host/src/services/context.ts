import type { Logger } from 'pino';
import type { installationTokens } from '../auth.js';
import type { HostConfig } from '../config.js';
import type { DeliveryPort } from '../delivery/host/port.js';
import type { HostMetrics } from '../metrics/index.js';
import type { AddressPolicy } from '../net/index.js';
import type { Storage } from '../storage/index.js';
import type { HostTracing } from '../tracing/index.js';

/** What every host service needs; built once in `createHost`. */
export interface HostContext {
  readonly config: HostConfig;
  readonly storage: Storage;
  readonly logger: Logger;
  readonly policy: AddressPolicy;
  readonly tokens: ReturnType<typeof installationTokens>;
  /** Counters of the main thread (`GET /metrics`). */
  readonly metrics: HostMetrics;
  /** Base URL the host's API is reachable at (the API endpoint given to integrations). */
  baseUrl(): string;
  /**
   * Base URL of the origin that serves integration content (public endpoints), which differs from the
   * API's so that nothing an integration answers runs with the dashboard's origin (docs/security.md
   * "Integration content"). Default: `baseUrl()`.
   */
  contentBaseUrl?(): string;
  /** Wakes the workers after jobs were committed. */
  readonly notify: { deliveries(): void; invocations(): void };
  /**
   * Delivery as the services see it: the hand-over of first attempts and the slow installations
   * (`noDelivery` when nothing delivers; see delivery/host/port.ts).
   */
  readonly delivery: DeliveryPort;
  /** This thread's tracing; undefined when tracing is off (no spans, no `traceparent`). */
  readonly tracing?: HostTracing;
}

export { contentBase, publicEndpoint } from '../urls.js';
export { WEBHOOK_INTEGRATION } from './names.js';
