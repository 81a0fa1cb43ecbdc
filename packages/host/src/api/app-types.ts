import type { z } from '@hono/zod-openapi';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Principal } from '../access/principal.js';
import { HttpError } from '../errors.js';

export type { Principal } from '../access/principal.js';

/** Hono environment of the host API. */
export interface HostEnv {
  Variables: { principal: Principal };
}

/** One-line description of a zod validation failure: `body.configuration.url: Invalid URL`. */
export function describeIssues(where: string, issues: ReadonlyArray<z.core.$ZodIssue>): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = [where, ...issue.path.map(String)].join('.');
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * The 400 of a request that failed validation: a readable message (first issues, located) and every
 * issue in `details.issues`.
 *
 * @example
 * const result = IncomingEvent.safeParse(body);
 * if (!result.success) throw validationError('body', result.error.issues);
 */
export function validationError(where: string, issues: ReadonlyArray<z.core.$ZodIssue>): HttpError {
  return new HttpError(400, 'invalid_request', describeIssues(where, issues), {
    issues: issues.map((i) => ({ path: i.path.map(String), message: i.message })),
  });
}

/** A router whose request validation failures are 400s with a readable message (never a 500). */
export function createRouter(): OpenAPIHono<HostEnv> {
  return new OpenAPIHono<HostEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const where = 'target' in result ? String(result.target) : 'request';
        return c.json(validationError(where === 'json' ? 'body' : where, result.error.issues).toJSON(), 400);
      }
      return undefined;
    },
  });
}
