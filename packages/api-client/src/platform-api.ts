import { type ApiClient, createApiClient } from './client';

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
 * A base class whose instance takes the members of the client it is built with (its groups and
 * `request`, read-only; `userAgent` is {@link PlatformAPI}'s own): what lets {@link PlatformAPI} be
 * {@link createApiClient}'s client with a constructor, without naming each member again.
 */
const ClientMembers = class {
  constructor(client: ApiClient) {
    Object.assign(this, client);
  }
} as new (
  client: ApiClient,
) => Readonly<Omit<ApiClient, 'userAgent'>>;

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
export class PlatformAPI extends ClientMembers implements ApiClient {
  /** Base URL of the host API, as given. */
  readonly endpoint: string;
  /** The `user-agent` sent, if any. */
  readonly userAgent: string | undefined;

  constructor(options: PlatformAPIOptions) {
    if (typeof options?.endpoint !== 'string' || options.endpoint === '') {
      throw new TypeError(
        'PlatformAPI: `endpoint` is required (the host API base URL, e.g. context.environment.apiEndpoint).',
      );
    }
    super(
      createApiClient({
        endpoint: options.endpoint,
        token: options.authToken ?? '',
        ...(options.userAgent ? { userAgent: options.userAgent } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
    );
    this.endpoint = options.endpoint;
    this.userAgent = options.userAgent;
  }
}
