/**
 * HTTP-facing errors of the host. Every error a client can cause is an `HttpError`
 * with a stable `code` and a `status`; its message is meant for the caller.
 * Anything else is an internal error: logged, and answered with a generic 500.
 *
 * @example
 * throw new HttpError(404, 'not_found', 'No installation inst_123.');
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  /** The JSON body every error response carries: `{ "error": { code, message, details? } }`. */
  toJSON(): { error: { code: string; message: string; details?: unknown } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

/** 400: the request is malformed or fails validation. */
export const badRequest = (message: string, details?: unknown): HttpError =>
  new HttpError(400, 'invalid_request', message, details);
/** 401: no or wrong bearer token. */
export const unauthorized = (message = 'A valid bearer token is required (Authorization: Bearer <token>).') =>
  new HttpError(401, 'unauthorized', message);
/** 403: the token is valid but not for this resource. */
export const forbidden = (message: string): HttpError => new HttpError(403, 'forbidden', message);
/** 404: no such resource. */
export const notFound = (what: string): HttpError =>
  new HttpError(404, 'not_found', `${what} was not found.`);
/** 409: the request conflicts with the current state. */
export const conflict = (message: string): HttpError => new HttpError(409, 'conflict', message);
