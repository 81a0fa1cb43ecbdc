/**
 * The JavaScript that runs inside workerd: a loader worker that routes each request to the
 * integration named by {@link DEPLOYMENT_HEADER}, loading it on demand through the Worker Loader
 * binding (no workerd restart per deploy), and a wrapper module around each integration bundle.
 */

/** Request header carrying the deployment key from Node to the loader (stripped before the integration). */
export const DEPLOYMENT_HEADER = 'x-executor-deployment';
/** Response header set by the loader when the invocation failed (`load_failed`, `crashed`, `bad_request`). */
export const ERROR_HEADER = 'x-executor-error';
/** Response header a gate reply carries when the outbound policy refused the request. */
export const OUTBOUND_REFUSED_HEADER = 'x-executor-outbound-refused';
/** Path of the health probe answered by the loader itself. */
export const PING_PATH = '/__executor/ping';
/** Name of the wrapper's entrypoint the loader probes before a deployment's first request. */
export const PROBE_ENTRYPOINT = 'ExecutorProbe';
/** Module names inside each dynamic worker. */
export const WRAPPER_MODULE = '__executor_main.js';
export const INTEGRATION_MODULE = 'integration.js';

/**
 * Wraps the integration bundle: checks the default export and turns an uncaught exception into a
 * marked response, so the loader can tell `crashed` (code ran and threw) from `load_failed`.
 */
export const WRAPPER_SOURCE = `
import { WorkerEntrypoint } from 'cloudflare:workers';
import * as mod from './${INTEGRATION_MODULE}';
const handler = mod.default;
const hasFetch = handler !== null && (typeof handler === 'object' || typeof handler === 'function') && typeof handler.fetch === 'function';

// Called once per deployment before its first request: a failure here (or in evaluating the
// bundle, which happens first) is a load failure; anything later is the integration's own doing.
export class ${PROBE_ENTRYPOINT} extends WorkerEntrypoint {
  check() {
    return hasFetch ? null : 'the bundle has no default export with a fetch(request, env, ctx) function';
  }
}

export default {
  async fetch(request, env, ctx) {
    try {
      const response = await handler.fetch(request, env, ctx);
      if (!(response instanceof Response)) throw new TypeError('fetch() did not return a Response');
      if (!response.headers.has('${ERROR_HEADER}')) return response;
      const cleaned = new Response(response.body, response); // integration code may not forge the marker
      cleaned.headers.delete('${ERROR_HEADER}');
      return cleaned;
    } catch (error) {
      const message = error instanceof Error ? error.name + ': ' + error.message : 'non-Error value thrown';
      return new Response(JSON.stringify({ message }), { status: 500, headers: { '${ERROR_HEADER}': 'crashed' } });
    }
  },
};
`;

/**
 * Builds the loader worker's module source.
 *
 * @example
 * new Miniflare({ modules: true, script: loaderWorkerSource({ compatibilityDate: '2025-09-01', compatibilityFlags: [] }) });
 */
export function loaderWorkerSource(config: {
  compatibilityDate: string;
  compatibilityFlags: readonly string[];
}): string {
  return `
import { WorkerEntrypoint } from 'cloudflare:workers';

const CONFIG = ${JSON.stringify(config)};
const WRAPPER = ${JSON.stringify(WRAPPER_SOURCE)};
const loaded = new Set(); // deployment keys whose bundle loaded once in this workerd

function failure(code, message, status) {
  return new Response(JSON.stringify({ message }), { status, headers: { '${ERROR_HEADER}': code, 'content-type': 'application/json' } });
}

// globalOutbound of every integration: forwards to the host's gate (a Node function) and turns a
// refusal into a thrown TypeError, as a network error would be.
// Each deployment gets its own gate (props.key), which tells the host whose request it is.
export class Gate extends WorkerEntrypoint {
  async fetch(request) {
    const tagged = new Request(request);
    tagged.headers.set('${DEPLOYMENT_HEADER}', this.ctx.props.key);
    const response = await this.env.OUTBOUND.fetch(tagged);
    if (response.headers.has('${OUTBOUND_REFUSED_HEADER}')) {
      throw new TypeError(await response.text());
    }
    return response;
  }
}

export default {
  async fetch(request, env, ctx) {
    const key = request.headers.get('${DEPLOYMENT_HEADER}');
    if (key === null) {
      const url = new URL(request.url);
      if (url.pathname === '${PING_PATH}') return new Response('pong');
      return failure('bad_request', 'missing ${DEPLOYMENT_HEADER} header', 400);
    }
    // Read the whole body off the socket before answering anything: workerd may otherwise close a
    // keep-alive connection whose request body was left unread, racing the host's next request.
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const body = hasBody ? await request.arrayBuffer() : undefined;
    const worker = env.LOADER.get(key, async () => {
      const source = await env.SOURCE.fetch('http://source/', { headers: { '${DEPLOYMENT_HEADER}': key } });
      if (!source.ok) throw new Error('deployment source unavailable (' + source.status + ')');
      const { script, vars } = await source.json();
      return {
        compatibilityDate: CONFIG.compatibilityDate,
        compatibilityFlags: CONFIG.compatibilityFlags,
        mainModule: '${WRAPPER_MODULE}',
        modules: { '${WRAPPER_MODULE}': WRAPPER, '${INTEGRATION_MODULE}': script },
        env: vars,
        globalOutbound: env.OUTBOUND ? ctx.exports.Gate({ props: { key } }) : null,
      };
    });
    if (!loaded.has(key)) {
      let problem;
      try {
        problem = await worker.getEntrypoint('${PROBE_ENTRYPOINT}').check();
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      if (problem) return failure('load_failed', problem, 500);
      loaded.add(key);
    }
    const headers = new Headers(request.headers);
    headers.delete('${DEPLOYMENT_HEADER}');
    const forwarded = new Request(request.url, {
      method: request.method,
      headers,
      body,
      // The integration's 3xx goes back to the caller as is (an OAuth redirect to the provider).
      redirect: 'manual',
    });
    try {
      return await worker.getEntrypoint().fetch(forwarded);
    } catch (error) {
      // The wrapper turns what the integration throws into a marked response; this is the runtime
      // giving up on it (e.g. a promise that can never resolve).
      return failure('crashed', error instanceof Error ? error.message : String(error), 500);
    }
  },
};
`;
}
