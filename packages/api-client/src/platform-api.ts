import { type ApiClient, createApiClient } from './client';
import type { UnservedGroup } from './platform-groups';

/**
 * Options of {@link PlatformAPI}: the names code written for a class client passes
 * (`new GitBookAPI({ endpoint, authToken })`).
 * @example const options: PlatformAPIOptions = { endpoint: environment.apiEndpoint, authToken: environment.apiTokens.installation };
 */
export interface PlatformAPIOptions {
  /** Base URL of the host API (`environment.apiEndpoint`); there is no default host. */
  endpoint: string;
  /** Bearer token (an `apiTokens` value); without one, no `authorization` header is sent. */
  authToken?: string;
  /** Sent as `user-agent` when set. */
  userAgent?: string;
  /** The fetch to use; the global `fetch` by default. */
  fetch?: typeof fetch;
}

/**
 * The host API client as a class: the same client as {@link createApiClient} (same methods, same
 * {@link ApiError}s), constructible with `{ endpoint, authToken }`. It is also exported as
 * `GitBookAPI`, so code that builds its own client (for example with another token) runs unchanged;
 * it has the methods and groups of `ApiClient` (packages/api-client/README.md "Compatibility names").
 *
 * @example
 * ```ts
 * const api = new PlatformAPI({ endpoint: context.environment.apiEndpoint, authToken: token });
 * const installation = await api.installations.get(context.environment.installation!.id);
 * ```
 */
export class PlatformAPI implements ApiClient {
  /** Base URL of the host API, as given. */
  readonly endpoint: string;
  /** The `user-agent` sent, if any. */
  readonly userAgent: string | undefined;
  readonly installations: ApiClient['installations'];
  readonly request: ApiClient['request'];
  readonly integrations: ApiClient['integrations'];
  readonly spaces: ApiClient['spaces'];
  readonly orgs: ApiClient['orgs'];
  readonly urls: ApiClient['urls'];
  readonly user: UnservedGroup;
  readonly users: UnservedGroup;
  readonly collections: UnservedGroup;
  readonly teams: UnservedGroup;
  readonly changeRequests: UnservedGroup;
  readonly search: UnservedGroup;
  readonly openapi: UnservedGroup;

  constructor(options: PlatformAPIOptions) {
    if (typeof options?.endpoint !== 'string' || options.endpoint === '') {
      throw new TypeError(
        'PlatformAPI: `endpoint` is required (the host API base URL, e.g. context.environment.apiEndpoint).',
      );
    }
    this.endpoint = options.endpoint;
    this.userAgent = options.userAgent;
    const client = createApiClient({
      endpoint: options.endpoint,
      token: options.authToken ?? '',
      ...(options.userAgent ? { userAgent: options.userAgent } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.installations = client.installations;
    this.request = client.request;
    this.integrations = client.integrations;
    this.spaces = client.spaces;
    this.orgs = client.orgs;
    this.urls = client.urls;
    this.user = client.user;
    this.users = client.users;
    this.collections = client.collections;
    this.teams = client.teams;
    this.changeRequests = client.changeRequests;
    this.search = client.search;
    this.openapi = client.openapi;
  }
}
