import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IntegrationEnvironment } from '@platform/api-client';
import { bundleIntegration } from '@platform/bundler';
import { envelopeRequest, testEnvironment } from '@platform/runtime/testing';
import { Miniflare } from 'miniflare';

export const exampleDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Bundles the example like the host would, with the project's one bundler (`platform build`'s). */
export async function bundleHello(): Promise<string> {
  return (await bundleIntegration(exampleDir, { entry: 'src/index.tsx', mode: 'dev' })).code;
}

/** A running workerd with the bundle; `post` sends a real multipart envelope over HTTP. */
export interface Workerd {
  url: URL;
  post(
    event: object,
    options?: {
      environment?: IntegrationEnvironment;
      body?: Uint8Array<ArrayBuffer> | string;
      sign?: (body: Uint8Array) => Promise<string>;
    },
  ): Promise<Response>;
  dispose(): Promise<void>;
}

export async function startWorkerd(
  script: string,
  compatibilityFlags: string[],
  bindings: Record<string, string> = {},
): Promise<Workerd> {
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2026-04-01',
    compatibilityFlags,
    bindings,
  });
  const url = await mf.ready;
  return {
    url,
    async post(event, options = {}) {
      const request = envelopeRequest(event, { environment: options.environment, body: options.body });
      const bytes = new Uint8Array(await request.arrayBuffer());
      const headers: Record<string, string> = { 'content-type': request.headers.get('content-type') ?? '' };
      if (options.sign) headers['x-platform-signature'] = await options.sign(bytes);
      return fetch(new URL('/v1', url), { method: 'POST', body: bytes, headers, redirect: 'manual' });
    },
    dispose: () => mf.dispose(),
  };
}

/** The environment of the example's tests; `publicEndpoint` and `apiEndpoint` may be real loopback servers. */
export function helloEnvironment(options: { apiEndpoint?: string; secrets?: Record<string, string> } = {}) {
  const publicEndpoint = 'http://127.0.0.1:8080/v1/integrations/hello/installations/inst_hello/public';
  const base = testEnvironment();
  return testEnvironment({
    apiEndpoint: options.apiEndpoint ?? base.apiEndpoint,
    apiTokens: { installation: 'pit_hello_token' },
    secrets: {
      CLIENT_ID: 'hello-client',
      CLIENT_SECRET: 'hello-client-secret',
      WEBHOOK_SECRET: 'whk_hello',
      ...options.secrets,
    },
    integration: {
      name: 'hello',
      version: '0.1.0',
      title: 'Hello',
      urls: { publicEndpoint, publicContentEndpoint: publicEndpoint },
    },
    installation: {
      id: 'inst_hello',
      target: 'space',
      status: 'active',
      configuration: { greeting: 'Howdy' },
      externalIds: [],
      space_selection: { mode: 'all', spaces: [] },
      urls: { publicEndpoint, publicContentEndpoint: publicEndpoint },
    },
  });
}

/** A `fetch` event for a path below the example's public endpoint. */
export function fetchEvent(path: string, method = 'GET', headers: Record<string, string> = {}) {
  const base = helloEnvironment().integration.urls.publicEndpoint;
  return { type: 'fetch', eventId: `evt_${path}`, request: { method, url: `${base}${path}`, headers } };
}
