import { createDeliveryMetrics } from '../../metrics/index.js';
import { createGuardedDispatcher } from '../../net/index.js';
import { type DeliveryHost, noHandOff } from './port.js';
import { deliverySocketsPerOrigin, startDeliveryEngine } from './queue-engine.js';
import type { DeliveryRunner } from './runner.js';
import { slowInstallations } from './slow-installations.js';
import { startDeliveryThread } from './thread.js';
import type { DeliveryStorageOptions } from './thread-protocol.js';

/**
 * The webhook delivery engine: in its own thread on its own storage handle (`PLATFORM_DELIVERY_THREAD=1`),
 * or on this thread (`0`, no hand-over then). Either way with a guarded dispatcher of as many connections
 * per receiver as deliveries may be in flight, so no attempt waits for a socket.
 *
 * @example
 * const runner = await startDelivery(ctx, { sqlitePath }, '0.1.0');
 * runner.notify(); // after committing deliveries
 * await runner.stop();
 */
export async function startDelivery(
  ctx: DeliveryHost,
  storage: DeliveryStorageOptions,
  version: string,
): Promise<DeliveryRunner> {
  const { config } = ctx;
  if (config.deliveryThread) {
    return startDeliveryThread({
      logger: ctx.logger,
      workerData: {
        config: {
          deliveryTimeoutMs: config.deliveryTimeoutMs,
          deliveryConcurrency: config.deliveryConcurrency,
          deliveryConcurrencyPerInstallation: config.deliveryConcurrencyPerInstallation,
          queuePollMs: config.queuePollMs,
          endpointDisableAfterMs: config.endpointDisableAfterMs,
          ...(config.operatorEvents ? { operatorEvents: config.operatorEvents } : {}),
          // The thread starts its own tracer provider and exporter from the same settings.
          ...(config.tracing ? { tracing: config.tracing } : {}),
          ...(config.allowPrivateTargets === undefined
            ? {}
            : { allowPrivateTargets: config.allowPrivateTargets }),
        },
        storage,
        version,
      },
      stopTimeoutMs: config.deliveryTimeoutMs + 5_000,
    });
  }
  const dispatcher = createGuardedDispatcher(ctx.policy, {
    connectionsPerOrigin: deliverySocketsPerOrigin(config.deliveryConcurrency),
  });
  const slow = slowInstallations(ctx.logger, config.deliveryConcurrencyPerInstallation);
  const attemptMetrics = createDeliveryMetrics();
  const engine = startDeliveryEngine({ ...ctx, attemptMetrics }, dispatcher, version, undefined, slow.update);
  return {
    handOff: noHandOff,
    notify: () => engine.notify(),
    isSlow: slow.has,
    slowCount: slow.count,
    slowInstallations: slow.list,
    metrics: () => attemptMetrics.registry.metrics(),
    async stop() {
      await engine.stop({ graceful: true });
      await dispatcher.close();
    },
  };
}
