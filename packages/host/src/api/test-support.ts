import type { HostContext } from '../services/context.js';
import { createApi } from './app.js';

/**
 * The host's API for tests that run no integration: any attempt to run one throws.
 *
 * @example
 * const app = apiWithoutIntegrations(ctx, 'pat_admin', 'test');
 * const response = await app.fetch(new Request('http://host/v1/status'));
 */
export function apiWithoutIntegrations(ctx: HostContext, adminToken: string, version: string) {
  return createApi(ctx, {
    adminToken,
    executors: {
      executorFor: () => {
        throw new Error('no integration runs in these tests');
      },
    },
    ready: () => true,
    version,
  });
}
