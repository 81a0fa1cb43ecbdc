import type { z } from '@hono/zod-openapi';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { HttpError } from '../errors.js';

/** Who is calling: the operator (admin token) or one installation (its scoped token). */
export type Principal = { kind: 'operator' } | { kind: 'installation'; installationId: string };

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

/** Requires the operator token. */
export function requireOperator(principal: Principal): void {
  if (principal.kind !== 'operator') throw new HttpError(403, 'forbidden', 'This needs the operator token.');
}

/** Requires the operator token or the token of installation `id`. */
export function requireInstallationAccess(principal: Principal, id: string): void {
  if (principal.kind === 'operator') return;
  if (principal.installationId !== id) {
    throw new HttpError(
      403,
      'forbidden',
      'This token belongs to another installation; it can only access its own.',
    );
  }
}

/**
 * Route middleware: only the operator token. Given as a route's `middleware`, it runs before the route's
 * validators, so a token without the right is refused (403) before its body, query or parameters are
 * read or described (see docs/security.md "Who may do what").
 *
 * @example
 * createRoute({ method: 'post', path: '/v1/events', middleware: [operatorOnly], ... });
 */
export const operatorOnly: MiddlewareHandler<HostEnv> = async (c, next) => {
  requireOperator(c.get('principal'));
  await next();
};

/**
 * Route middleware: the operator token or the token of the installation in the path's `{id}`; runs
 * before the route's validators, like {@link operatorOnly}.
 *
 * @example
 * createRoute({ method: 'get', path: '/v1/installations/{id}', middleware: [ownInstallation], ... });
 */
export const ownInstallation: MiddlewareHandler<HostEnv> = async (c, next) => {
  requireInstallationAccess(c.get('principal'), c.req.param('id') ?? '');
  await next();
};
