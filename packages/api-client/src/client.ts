import type { Installation, InstallationConfiguration } from './environment';
import { ApiError, apiErrorFromResponse } from './errors';
import { type PlatformGroups, platformGroups } from './platform-groups';

export type { QueuedTask, QueueTaskRequest } from './platform-groups/types';

/**
 * Options of {@link createApiClient}.
 * @example const options: ApiClientOptions = { endpoint: 'http://127.0.0.1:8080', token: 'pit_x' };
 */
export interface ApiClientOptions {
  /** Base URL of the host API (`environment.apiEndpoint`). */
  endpoint: string;
  /** Bearer token (`environment.apiTokens.installation`); `''` sends no `authorization` header. */
  token: string;
  /** Sent as `user-agent` when set. */
  userAgent?: string;
  /** The fetch to use; the global `fetch` by default. */
  fetch?: typeof fetch;
  /** The caller's integration name: what an `undefined` integration argument of a grouped call means. */
  integration?: string;
  /** The caller's installation id: what an `undefined` installation argument of a grouped call means. */
  installation?: string;
}

/**
 * A typed client of the host HTTP API. Each endpoint is one method; the groups integrations call
 * (`integrations`, `spaces`, `orgs`, ...: {@link PlatformGroups}) answer `{ data }`.
 * @example const inst = await api.installations.get('inst_1');
 */
export interface ApiClient extends PlatformGroups {
  /** The `user-agent` the client sends, if any. */
  readonly userAgent?: string | undefined;
  installations: {
    /**
     * `GET /v1/installations/{id}`.
     * @example const inst = await api.installations.get(context.environment.installation!.id);
     */
    get(id: string): Promise<Installation>;
    /**
     * `PATCH /v1/installations/{id}` with `{ configuration: patch }`: a JSON merge patch
     * (keys set, `null` deletes). The host fires the set-up event (`InstallationSetupEvent`) afterwards.
     * @example await api.installations.updateConfiguration(id, { channel: 'general', old: null });
     */
    updateConfiguration(id: string, patch: InstallationConfiguration): Promise<Installation>;
  };
  /**
   * Low-level call used by every method: sends JSON, expects JSON, throws {@link ApiError}.
   * @example const inst = await api.request<Installation>('GET', '/v1/installations/inst_1');
   */
  request<T>(method: string, path: string, body?: unknown): Promise<T>;
}

/**
 * Creates a client of the host API, authenticated with an installation token.
 * Errors are {@link ApiError}s; no message ever contains the token.
 *
 * @example
 * const api = createApiClient({ endpoint: environment.apiEndpoint, token: environment.apiTokens.installation });
 * await api.installations.updateConfiguration('inst_1', { channel: 'general' });
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = options.endpoint.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const what = `${method} ${path}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.userAgent) headers['user-agent'] = options.userAgent;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ApiError(
        0,
        'network_error',
        `${what} failed: cannot reach the host API at ${base} (${reason})`,
      );
    }
    if (!response.ok) throw await apiErrorFromResponse(response, what);
    if (response.status === 204) return undefined as T;
    try {
      return (await response.json()) as T;
    } catch {
      throw new ApiError(response.status, 'invalid_response', `${what} failed: the host answered non-JSON`);
    }
  }

  const installationPath = (id: string) => `/v1/installations/${encodeURIComponent(id)}`;
  return {
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
    ...platformGroups(request, {
      integration: options.integration,
      installation: options.installation,
      token: options.token,
    }),
    request,
    installations: {
      get: (id) => request<Installation>('GET', installationPath(id)),
      updateConfiguration: (id, patch) =>
        request<Installation>('PATCH', installationPath(id), { configuration: patch }),
    },
  };
}
