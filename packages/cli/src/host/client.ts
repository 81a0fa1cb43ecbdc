import type { Installation } from '@platform/api-client';
import { ApiError, createApiClient } from '@platform/api-client';
import { HostError } from '../errors.js';
import type { HostTarget } from './target.js';

/** Talks to the host API; every failure is a {@link HostError} with a message a person can act on. */
export interface HostClient {
  readonly target: HostTarget;
  request<T>(method: string, path: string, body?: unknown): Promise<T>;
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
  if (error.status === 401) {
    return new HostError(
      401,
      'unauthorized',
      `the host at ${target.url} refused the token from ${target.tokenSource}; pass the operator token with --token, PLATFORM_TOKEN or \`platform login --token <token>\`.`,
    );
  }
  if (error.status === 403) {
    return new HostError(403, 'forbidden', `${error.message} (use the operator token of ${target.url}).`);
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
 * const { integrations } = await host.request<{ integrations: unknown[] }>('GET', '/v1/integrations');
 * ```
 */
export function hostClient(target: HostTarget): HostClient {
  const api = createApiClient({ endpoint: target.url, token: target.token });
  return {
    target,
    async request<T>(method: string, path: string, body?: unknown): Promise<T> {
      try {
        return await api.request<T>(method, path, body);
      } catch (error) {
        if (error instanceof ApiError) throw explainApiError(error, target);
        throw error;
      }
    },
  };
}

/** The host's view of an installation (the `Installation` of `@platform/api-client`). */
export type InstallationView = Installation;

/** One invocation with its log lines (`GET /v1/installations/{id}/logs`). */
export interface InvocationView {
  id: string;
  eventType: string;
  eventId: string | null;
  status: number | 'error';
  durationMs: number;
  lines: Array<{ level: string; message: string; time: number }>;
  createdAt: string;
}

/** One webhook delivery with its attempts. */
export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  state: string;
  series: number;
  nextAttemptAt?: string;
  createdAt: string;
  payload: unknown;
  attempts: Array<{
    number: number;
    series: number;
    startedAt: string;
    durationMs: number;
    statusCode?: number;
    error?: string;
    responseExcerpt?: string;
  }>;
}
