import type { ContentKitElement } from '@platform/api-client';

/** Installation as the host API returns it. */
export type { Installation } from '@platform/api-client';

/** Integration as the host API returns it (latest version). */
export interface Integration {
  name: string;
  version: string;
  title: string;
  description: string;
  visibility: string;
  scopes: string[];
  firstParty: boolean;
  /** The uploaded icon (`GET /v1/assets/{hash}`), or null. */
  iconUrl: string | null;
  /** The uploaded preview images, in manifest order. */
  previewImageUrls: string[];
  manifest: Record<string, unknown>;
  createdAt: string;
}

/** One attempt of a webhook delivery. */
export interface Attempt {
  number: number;
  series: number;
  startedAt: string;
  durationMs: number;
  statusCode?: number;
  error?: string;
  responseExcerpt?: string;
}

/** One webhook delivery with its attempts. */
export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  state: 'queued' | 'running' | 'succeeded' | 'failed' | 'exhausted' | 'cancelled';
  series: number;
  nextAttemptAt?: string;
  createdAt: string;
  payload: unknown;
  attempts: Attempt[];
}

/** What `POST /v1/installations/{id}/render` answers. */
export interface Rendered {
  element: ContentKitElement;
  state: Record<string, unknown>;
}

/**
 * An API call that failed: `code` and `message` from the host's `{"error":{"code","message"}}`
 * body, or a description of a network failure (`code: 'network'`).
 * @example if (error instanceof ApiError && error.status === 401) signOut();
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

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

/**
 * Calls the host API on the same origin with the operator token.
 * @example const { integrations } = await api<{ integrations: Integration[] }>('GET', '/v1/integrations');
 */
export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  options: { signingIn?: boolean } = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
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
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    const code = typeof error?.code === 'string' ? error.code : `http_${response.status}`;
    const message =
      typeof error?.message === 'string'
        ? error.message
        : `The host answered HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}.`;
    if (response.status === 401 && !options.signingIn) onUnauthorized();
    throw new ApiError(response.status, code, message);
  }
  return parsed as T;
}

/** A readable sentence for any error thrown by {@link api} or elsewhere. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
