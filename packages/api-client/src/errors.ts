import { isRecord } from './guards';

/**
 * An error answered by (or on the way to) the host API. `status` is the HTTP status
 * (0 when no response arrived), `code` the stable error code from
 * `{"error":{"code","message","details"}}`, `details` what the host added to it (e.g.
 * `{ scope }` of a `missing_scope` refusal). Messages never contain the API token.
 *
 * @example
 * try { await api.installations.get('inst_x'); }
 * catch (e) { if (e instanceof ApiError && e.status === 404) console.log(e.code); }
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status, or 0 for a network failure. */
  readonly status: number;
  /** Stable code: the host's `error.code`, or `network_error` / `invalid_response`. */
  readonly code: string;
  /** The host's `error.details`, when it sent any (e.g. `{ scope: 'deliveries:read' }`). */
  readonly details?: unknown;

  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    if (details !== undefined) this.details = details;
  }
}

/**
 * Builds an {@link ApiError} from an error response of the host, reading
 * `{"error":{"code","message","details"}}` when the body has that shape.
 *
 * @example
 * const err = await apiErrorFromResponse(new Response('{"error":{"code":"not_found","message":"No such installation"}}', { status: 404 }), 'GET /v1/installations/x');
 */
export async function apiErrorFromResponse(response: Response, what: string): Promise<ApiError> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    // an unreadable body is reported with the status alone
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : undefined;
  const code = typeof error?.code === 'string' ? error.code : `http_${response.status}`;
  const detail = typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`;
  return new ApiError(response.status, code, `${what} failed: ${detail}`, error?.details);
}
