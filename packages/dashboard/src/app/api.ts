import { ApiError, createHostApi } from '@platform/api-client';
import type { HostRoutes } from '@platform/host/api';

// The host's own types of what its API answers (type-only: nothing of the host is bundled).
export type {
  Attempt,
  AuditEntry,
  Delivery,
  DeliveryStats,
  HostStatus,
  Installation,
  Integration,
  Organization,
  OrganizationToken,
  PortalSession,
  QueueState,
  WebhookEndpointState,
  WhoAmI,
} from '@platform/host/api';

/** What `POST /v1/installations/{id}/render` answers. */
export type Rendered = HostRoutes['POST /v1/installations/{id}/render']['response'];
/** What `POST /v1/organizations/{organization}/tokens` answers: the token, this once. */
export type CreatedToken = HostRoutes['POST /v1/organizations/{organization}/tokens']['response'];
/** What `GET /v1/audit` answers: a page of entries, newest first. */
export type AuditPage = HostRoutes['GET /v1/audit']['response'];
/** What `GET /v1/installations/{id}/webhook-secret` answers. */
export type WebhookSecretAnswer = HostRoutes['GET /v1/installations/{id}/webhook-secret']['response'];

/**
 * An API call that failed (the api-client's class): `code` and `message` from the host's
 * `{"error":{"code","message"}}` body, or a description of a network failure (`code: 'network'`).
 */
export { ApiError };

/** Called when the host answers 401: the token is no longer accepted. */
let onUnauthorized: () => void = () => {};
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

let token = '';
/** Sets the operator token sent as `Authorization: Bearer`. */
export function setToken(value: string): void {
  token = value;
}

/** Where and how {@link request} sends: the API's base URL, the bearer token, what a 401 does. */
interface Transport {
  /** Base URL of the API (`''`: this page's origin). */
  base: string;
  token(): string;
  onUnauthorized(): void;
}

const sameOrigin: Transport = { base: '', token: () => token, onUnauthorized: () => onUnauthorized() };

/** Sends one request to the host API with a bearer token and turns failures into {@link ApiError}s. */
async function request(
  transport: Transport,
  method: string,
  path: string,
  body: unknown,
  options: { signingIn?: boolean; keepalive?: boolean } = {},
): Promise<unknown> {
  const bearer = transport.token();
  let response: Response;
  try {
    response = await fetch(`${transport.base}${path}`, {
      method,
      ...(options.keepalive ? { keepalive: true } : {}),
      headers: {
        accept: 'application/json',
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, 'network', 'The host cannot be reached. Check that it is running, then retry.');
  }
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)
      ?.error;
    const code = typeof error?.code === 'string' ? error.code : `http_${response.status}`;
    const message =
      typeof error?.message === 'string'
        ? error.message
        : `The host answered HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}.`;
    if (response.status === 401 && !options.signingIn) transport.onUnauthorized();
    // `details` (e.g. the fields a refused configuration names) lets a form show each under its field.
    throw new ApiError(response.status, code, message, error?.details);
  }
  return parsed ?? undefined;
}

const send = (
  method: string,
  path: string,
  body: unknown,
  options?: { signingIn?: boolean; keepalive?: boolean },
) => request(sameOrigin, method, path, body, options);

/**
 * Calls one route of the host API, typed by the host's route schemas (`@platform/host/api`).
 * @example const { integrations } = await api('GET /v1/integrations');
 */
export const api = createHostApi<HostRoutes>((method, path, body) => send(method, path, body));

/**
 * {@link api} for the sign-in check: a 401 means "wrong token", not "signed out".
 * @example await apiSigningIn('GET /v1/integrations');
 */
export const apiSigningIn = createHostApi<HostRoutes>((method, path, body) =>
  send(method, path, body, { signingIn: true }),
);

/**
 * {@link api} for a save made while the page goes away (`pagehide`): the request outlives the page
 * (`keepalive`; browsers cap such bodies at 64 KiB).
 * @example void apiKeepalive('PUT /v1/spaces/{spaceId}/document', { params, body });
 */
export const apiKeepalive = createHostApi<HostRoutes>((method, path, body) =>
  send(method, path, body, { keepalive: true }),
);

/** A typed client of the host API, as {@link api} and {@link createApiClient} make. */
export type ApiCall = typeof api;

/**
 * A typed client of the host API at another origin with a token of its own, kept by the caller (the
 * subscriber portal: its session token, in memory only). `onUnauthorized` runs when the host answers 401.
 *
 * @example
 * const call = createApiClient({ base: 'http://127.0.0.1:8080', token: 'pps_…', onUnauthorized: () => showExpired() });
 * const { installations } = await call('GET /v1/installations');
 */
export function createApiClient(options: { base: string; token: string; onUnauthorized(): void }): ApiCall {
  const transport: Transport = {
    base: options.base.replace(/\/+$/, ''),
    token: () => options.token,
    onUnauthorized: options.onUnauthorized,
  };
  return createHostApi<HostRoutes>((method, path, body) => request(transport, method, path, body));
}

/** A readable sentence for any error thrown by {@link api} or elsewhere. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
