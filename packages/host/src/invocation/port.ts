import type { Logger } from 'pino';
import type { installationTokens } from '../auth.js';
import type { HostConfig } from '../config.js';
import type { HostMetrics } from '../metrics/index.js';
import type { Storage } from '../storage/index.js';
import type { HostTracing } from '../tracing/index.js';
import type { HostUrls } from '../urls.js';

/**
 * What the invocation of integration code needs of the host: the one port between `invocation/` and the
 * host. The services' `HostContext` is one (it has these and more), so a service hands its context over
 * as it is; nothing in `invocation/` imports `services/`.
 *
 * @example
 * startInvocationWorker(ctx, executors); // ctx: HostContext, seen here as an InvocationHost
 */
export interface InvocationHost extends HostUrls {
  readonly config: HostConfig;
  readonly storage: Storage;
  readonly logger: Logger;
  /** Issues the installation token an envelope's environment carries. */
  readonly tokens: ReturnType<typeof installationTokens>;
  /** Counters of the main thread (`GET /metrics`). */
  readonly metrics: HostMetrics;
  /** This thread's tracing; undefined when tracing is off. */
  readonly tracing?: HostTracing;
}
