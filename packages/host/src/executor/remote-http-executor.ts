import { resolveTimeout, startDeadline } from './deadline.js';
import { ExecutorError, timeoutError } from './errors.js';
import { forwardableHeaders, readRequestBody, toResponse } from './http.js';
import {
  DEFAULT_TIMEOUT_MS,
  type Deployment,
  type Executor,
  type InvokeOptions,
  type InvokeResult,
} from './types.js';

/**
 * Options of {@link RemoteHttpExecutor}.
 *
 * @example
 * new RemoteHttpExecutor({ baseUrl: 'https://hello.example.com/integration', fetch: policyFetch });
 */
export interface RemoteHttpExecutorOptions {
  /** Where the integration is hosted; the request's path and query are appended to its path. */
  readonly baseUrl: string | URL | ((deployment: Deployment) => string | URL);
  /** The host's fetch (applies the address policy). */
  readonly fetch: (request: Request) => Promise<Response>;
  readonly defaultTimeoutMs?: number;
}

/**
 * Posts the envelope to an integration hosted elsewhere (its runtime verifies the signature).
 *
 * @example
 * const executor = new RemoteHttpExecutor({ baseUrl: 'https://hello.example.com', fetch: policyFetch });
 * const { response } = await executor.invoke({ id: 'hello@1.0.0', script: '' }, request); // POST https://hello.example.com/v1
 */
export class RemoteHttpExecutor implements Executor {
  readonly #defaultTimeoutMs: number;
  #closed = false;

  constructor(private readonly options: RemoteHttpExecutorOptions) {
    this.#defaultTimeoutMs = resolveTimeout(options.defaultTimeoutMs, DEFAULT_TIMEOUT_MS);
    if (typeof options.baseUrl !== 'function') targetUrl(options.baseUrl, '/'); // fail fast on a bad URL
  }

  async invoke(deployment: Deployment, request: Request, options: InvokeOptions = {}): Promise<InvokeResult> {
    if (this.#closed) {
      throw new ExecutorError('unreachable', 'the remote executor is closed', deployment.id);
    }
    const deadline = startDeadline(resolveTimeout(options.timeoutMs, this.#defaultTimeoutMs), options.signal);
    const base =
      typeof this.options.baseUrl === 'function' ? this.options.baseUrl(deployment) : this.options.baseUrl;
    const incoming = new URL(request.url);
    const target = targetUrl(base, incoming.pathname + incoming.search);
    try {
      const response = await this.options.fetch(
        new Request(target, {
          method: request.method,
          headers: forwardableHeaders(request.headers),
          body: await readRequestBody(request),
          redirect: 'manual',
          signal: deadline.signal,
        }),
      );
      const body = new Uint8Array(await response.arrayBuffer());
      return {
        // fetch() decoded the body: drop its encoding headers.
        response: toResponse(response.status, response.headers, body, true),
        durationMs: deadline.elapsedMs(),
      };
    } catch (error) {
      const cause = deadline.cause();
      if (cause === 'timeout') throw timeoutError(deployment.id, deadline.timeoutMs);
      if (cause === 'aborted') throw deadline.signal.reason;
      throw new ExecutorError(
        'unreachable',
        `integration ${deployment.id} could not be reached at ${target.origin}`,
        deployment.id,
        describe(error),
      );
    } finally {
      deadline.dispose();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}

/**
 * Joins a base URL and a request path: `https://x.example/a` + `/v1?q` -> `https://x.example/a/v1?q`.
 *
 * @example
 * targetUrl('https://x.example/hello/', '/v1').href; // 'https://x.example/hello/v1'
 */
export function targetUrl(base: string | URL, pathAndQuery: string): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new TypeError(
      `baseUrl must be an absolute http(s) URL, e.g. https://hello.example.com (got ${String(base)})`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl must use http or https (got ${url.protocol})`);
  }
  const joined = new URL(url.origin);
  const [path = '', query] = pathAndQuery.split(/\?(.*)/s, 2);
  joined.pathname = url.pathname.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
  joined.search = query === undefined || query === '' ? '' : `?${query}`;
  return joined;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
