import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import { HttpError } from '../errors.js';
import { ExecutorError } from '../executor/index.js';
import { isStorageError } from '../storage/index.js';

/** 400: the JSON body could not be parsed (the same answer from every route that reads JSON). */
export const invalidJson = (): HttpError =>
  new HttpError(400, 'invalid_request', 'The request body is not valid JSON.');

/** Status, extra headers and JSON body of an error answer: `{"error": {"code", "message", "details"?}}`. */
export interface ErrorAnswer {
  status: number;
  body: ReturnType<HttpError['toJSON']>;
  /** Headers the answer carries besides its content type (`Retry-After` on a 503). */
  headers?: Record<string, string>;
}

/**
 * `Retry-After` of a 503 (seconds): the database is locked past its timeout, a write could not be synced,
 * or PostgreSQL is away (restarting, failing over); a client retries the same request after this.
 *
 * @example
 * res.writeHead(503, { 'retry-after': String(RETRY_AFTER_SECONDS) });
 */
export const RETRY_AFTER_SECONDS = 2;

/**
 * How the API answers an error thrown while handling a request, wherever it was handled (a Hono route or
 * a Node fast path): client errors (`HttpError`, Hono's `HTTPException`) with their own status and
 * message; integration failures as 502; storage that cannot write durably now as 503; anything else is logged (with `where`) and answered with a
 * generic 500 that reveals nothing.
 *
 * @example
 * const { status, body } = errorAnswer(error, logger, { method: 'POST', path: '/v1/events' });
 */
export function errorAnswer(
  error: unknown,
  logger: Pick<Logger, 'error'>,
  where: { method: string; path: string },
): ErrorAnswer {
  const answer = (e: HttpError): ErrorAnswer => ({ status: e.status, body: e.toJSON() });
  if (error instanceof HttpError) return answer(error);
  if (error instanceof HTTPException) {
    // Hono's validators throw a 400 HTTPException for a body that is not JSON.
    return answer(
      error.status === 400 ? invalidJson() : new HttpError(error.status, 'invalid_request', error.message),
    );
  }
  if (error instanceof ExecutorError) {
    return answer(new HttpError(502, `integration_${error.code}`, error.message));
  }
  if (isStorageError(error, 'unavailable')) {
    // The database is locked past its timeout, a write could not be synced to disk, or PostgreSQL cannot
    // be reached: nothing was acknowledged, and the same request again is safe (an event's `eventId`
    // makes it idempotent).
    logger.error({ err: error, ...where }, 'storage unavailable');
    return {
      ...answer(
        new HttpError(
          503,
          'unavailable',
          `The host's database is unavailable right now, so this request was not completed; retry the same request (with the same eventId for events) after ${RETRY_AFTER_SECONDS} s.`,
        ),
      ),
      headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
    };
  }
  logger.error({ err: error, ...where }, 'unhandled error');
  return answer(new HttpError(500, 'internal', 'The host failed to handle this request; see its log.'));
}
