import type { Logger } from 'pino';
import type { installationTokens } from '../auth.js';
import type { HostConfig } from '../config.js';
import type { HostMetrics } from '../metrics/index.js';
import type { AddressPolicy } from '../net/index.js';
import type { Storage } from '../storage/index.js';
import type { DeliveryHandOff } from './delivery-thread.js';

/** What every host service needs; built once in `createHost`. */
export interface HostContext {
  readonly config: HostConfig;
  readonly storage: Storage;
  readonly logger: Logger;
  readonly policy: AddressPolicy;
  readonly tokens: ReturnType<typeof installationTokens>;
  /** Counters of the main thread (`GET /metrics`). */
  readonly metrics: HostMetrics;
  /** Base URL the host is reachable at (API endpoint and public endpoints). */
  baseUrl(): string;
  /** Wakes the workers after jobs were committed. */
  readonly notify: { deliveries(): void; invocations(): void };
  /** Hands first attempts straight to the delivery engine, when it runs in its thread (see `DeliveryHandOff`). */
  readonly handOff?: DeliveryHandOff;
  /**
   * Whether the delivery engine's fair share holds the installation's endpoint for slow now (an attempt
   * ran past 500 ms within the last minute): at most its share of deliveries in flight.
   */
  readonly isSlowInstallation?: (installationId: string) => boolean;
  /** Every installation the delivery engine's fair share holds for slow now. */
  readonly slowInstallations?: () => string[];
}

/** Name of the built-in webhook integration, whose deliveries the host's engine performs. */
export const WEBHOOK_INTEGRATION = 'webhook';

/** Public endpoint of an installation; every path below it reaches the integration's `fetch`. */
export function publicEndpoint(ctx: HostContext, integrationName: string, installationId: string): string {
  return `${ctx.baseUrl()}/v1/integrations/${encodeURIComponent(integrationName)}/installations/${installationId}/public`;
}
