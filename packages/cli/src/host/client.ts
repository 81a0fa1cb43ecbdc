import { ApiError, createApiClient, createHostApi, type HostCall } from '@platform/api-client';
import type { Delivery, HostRoutes, Installation, Invocation } from '@platform/host/api';
import { HostError } from '../errors.js';
import type { HostTarget } from './target.js';

/** Talks to the host API; every failure is a {@link HostError} with a message a person can act on. */
export interface HostClient {
  readonly target: HostTarget;
  /**
   * Calls one route of the host API, typed by the host's own route schemas (`@platform/host/api`).
   * @example const { integrations } = await host.call('GET /v1/integrations');
   */
  readonly call: HostCall<HostRoutes>;
}

/** The host's 401 messages that only say the token is wrong (the CLI then says how to pass one). */
const GENERIC_REFUSALS = ['The bearer token is not valid', 'A valid bearer token is required'];

/** The host's own message, without the client's `"GET /v1/x failed: "` prefix. */
function hostReason(error: ApiError): string {
  const at = error.message.indexOf(' failed: ');
  return at === -1 ? error.message : error.message.slice(at + ' failed: '.length);
}

/**
 * The scope a `missing_scope` refusal names (`details.scope`), if any.
 *
 * @example
 * ```ts
 * missingScopeOf(new ApiError(403, 'missing_scope', 'm', { scope: 'audit:read' })); // 'audit:read'
 * ```
 */
export function missingScopeOf(error: ApiError): string | undefined {
  if (error.code !== 'missing_scope') return undefined;
  const details = error.details;
  if (typeof details !== 'object' || details === null) return undefined;
  const scope = (details as Record<string, unknown>).scope;
  return typeof scope === 'string' ? scope : undefined;
}

/** Turns an API failure into a clear {@link HostError} (never a stack trace or a bare status). */
export function explainApiError(error: ApiError, target: HostTarget): HostError {
  if (error.status === 0) {
    return new HostError(
      0,
      'host_unreachable',
      `cannot reach the host at ${target.url} (from ${target.urlSource}). Is it running? Start one with \`platform dev\`, or fix --url / PLATFORM_URL.`,
    );
  }
  // A host always answers its API with JSON (`{"error":{"code",...}}` on failure): anything else
  // comes from another server, whatever its status.
  if (error.code === 'invalid_response' || (error.code.startsWith('http_') && error.status < 500)) {
    return new HostError(
      error.status,
      'not_a_host',
      `the server at ${target.url} (from ${target.urlSource}) answered ${error.status} without the host's JSON: it is not a platform host. Check the URL and port (\`platform dev\` prints its host URL).`,
    );
  }
  if (error.status === 401) {
    const reason = hostReason(error);
    const generic = !reason || GENERIC_REFUSALS.some((g) => reason.startsWith(g));
    return new HostError(
      401,
      'unauthorized',
      generic
        ? `the host at ${target.url} refused the token from ${target.tokenSource}; pass the operator token or an organization token (pot_…) with --token, PLATFORM_TOKEN or \`platform login --token <token>\`.`
        : `the host at ${target.url} refused the token from ${target.tokenSource}: ${reason}`,
    );
  }
  if (error.status === 403) {
    // the host's message says what is missing (a scope, the operator token, the organization)
    const scope = missingScopeOf(error);
    return new HostError(
      403,
      error.code,
      scope
        ? `${error.message}\n  hint: ask an owner of the organization for a token with --scope ${scope}.`
        : error.message,
    );
  }
  if (error.status >= 500 && error.code.startsWith('http_')) {
    return new HostError(
      error.status,
      'host_error',
      `${error.message}: the host at ${target.url} failed; see its log.`,
    );
  }
  return new HostError(error.status, error.code, error.message);
}

/**
 * A client of the host API for the CLI.
 *
 * @example
 * ```ts
 * const host = hostClient(resolveTarget(io, flags));
 * const installation = await host.call('GET /v1/installations/{id}', { params: { id: 'inst_1' } });
 * ```
 */
export function hostClient(target: HostTarget): HostClient {
  const api = createApiClient({ endpoint: target.url, token: target.token });
  return {
    target,
    call: createHostApi<HostRoutes>(async (method, path, body) => {
      try {
        return await api.request<unknown>(method, path, body);
      } catch (error) {
        if (error instanceof ApiError) throw explainApiError(error, target);
        throw error;
      }
    }),
  };
}

/** The host's view of an installation (`GET /v1/installations/{id}`). */
export type InstallationView = Installation;

/** One invocation with its log lines (`GET /v1/installations/{id}/logs`). */
export type InvocationView = Invocation;

/** One webhook delivery with its attempts. */
export type DeliveryView = Delivery;
