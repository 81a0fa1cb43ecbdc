/**
 * Thrown by integration code to answer with a chosen status and message on purpose.
 * Any other error becomes a generic 500 `integration_error` (message and stack hidden).
 *
 * @example
 * throw new IntegrationError('Channel "x" does not exist', { status: 404, code: 'channel_not_found' });
 */
export class IntegrationError extends Error {
  override readonly name: string = 'IntegrationError';
  /** HTTP status of the answer; 500 by default. */
  readonly status: number;
  /** Stable error code of the answer; `integration_error` by default. */
  readonly code: string;

  constructor(message: string, options: { status?: number; code?: string } = {}) {
    super(message);
    const status = options.status ?? 500;
    this.status = Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500;
    this.code = options.code ?? 'integration_error';
  }
}

/**
 * The plain-text 405 answer of a handler that serves only the `allow` method.
 * @example if (request.method !== 'GET') return methodNotAllowed('GET');
 */
export function methodNotAllowed(allow: string): Response {
  return new Response('Method Not Allowed', {
    status: 405,
    headers: { 'content-type': 'text/plain; charset=utf-8', allow },
  });
}

/**
 * A JSON error answer `{"error":{"code","message", ...extra}}`.
 * @example return jsonError(404, 'not_found', 'No route /x');
 */
export function jsonError(
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return Response.json({ error: { code, message, ...extra } }, { status, headers });
}
