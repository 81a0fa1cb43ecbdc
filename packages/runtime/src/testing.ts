import { type Event, environmentUrls, type IntegrationEnvironment } from '@platform/api-client';
import type { ExecutionContextLike } from './integration';

/**
 * A complete environment for tests; override any part.
 * @example const environment = testEnvironment({ secrets: { CLIENT_ID: 'id' } });
 */
export function testEnvironment(overrides: Partial<IntegrationEnvironment> = {}): IntegrationEnvironment {
  const urls = environmentUrls({
    publicEndpoint: 'http://127.0.0.1:8080/v1/integrations/hello/installations/inst_test/public',
  });
  return {
    apiEndpoint: 'http://127.0.0.1:8080',
    apiTokens: { installation: 'pit_test_token' },
    integration: { name: 'hello', version: '1.0.0', title: 'Hello', urls },
    secrets: {},
    installation: {
      id: 'inst_test',
      target: 'organization',
      status: 'active',
      configuration: {},
      externalIds: [],
      space_selection: { mode: 'all', spaces: [] },
      urls,
    },
    ...overrides,
  };
}

/**
 * Builds the multipart envelope request the host posts (`POST {url}/v1`), with the
 * standard FormData; `body` becomes the `fetch-body` file part, byte for byte.
 *
 * @example
 * const response = await integration.fetch(envelopeRequest({ type: 'space_view', eventId: 'e1', spaceId: 's', visitor }));
 */
export function envelopeRequest(
  event: Event | object,
  options: {
    environment?: IntegrationEnvironment | Record<string, unknown>;
    body?: ArrayBuffer | Uint8Array<ArrayBuffer> | string;
    url?: string;
    headers?: Record<string, string>;
  } = {},
): Request {
  const form = new FormData();
  form.set('event', JSON.stringify(event));
  form.set('environment', JSON.stringify(options.environment ?? testEnvironment()));
  if (options.body !== undefined) {
    form.set('fetch-body', new Blob([options.body], { type: 'application/octet-stream' }), 'body');
  }
  return new Request(options.url ?? 'http://integration.local/v1', {
    method: 'POST',
    body: form,
    headers: options.headers,
  });
}

/**
 * A `ctx` collecting `waitUntil` promises; `settle()` awaits them all.
 * @example const ctx = testExecutionContext(); await integration.fetch(req, {}, ctx); await ctx.settle();
 */
export function testExecutionContext(): ExecutionContextLike & { settle(): Promise<void> } {
  const pending: Promise<unknown>[] = [];
  return {
    waitUntil: (promise) => {
      pending.push(promise);
    },
    settle: async () => {
      await Promise.allSettled(pending);
    },
  };
}

/**
 * Decodes an `X-Platform-Logs` header.
 * @example const lines = decodeLogsHeader(response.headers.get('x-platform-logs'));
 */
export function decodeLogsHeader(value: string | null): { level: string; message: string; time: number }[] {
  if (!value) return [];
  const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as { level: string; message: string; time: number }[];
}
