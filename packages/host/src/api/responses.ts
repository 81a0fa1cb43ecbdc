import type { z } from '@hono/zod-openapi';
import { ErrorBody } from './schemas.js';

/**
 * Building blocks of the routes' OpenAPI `responses`: a JSON body, an error answer, and the answers of the
 * operator-only routes to a missing or wrong token.
 *
 * @example
 * responses: { 200: { description: 'Status', content: json(HostStatus) }, ...OPERATOR_ONLY_ERRORS }
 */
export const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });

/**
 * An error answer (body {@link ErrorBody}) with its description.
 *
 * @example
 * responses: { 404: errorResponse('No such installation') }
 */
export const errorResponse = (description: string) => ({ description, content: json(ErrorBody) });

/**
 * 401 and 403 of an operator-only route.
 *
 * @example
 * responses: { 202: { description: 'Accepted', content: json(EventAccepted) }, ...OPERATOR_ONLY_ERRORS }
 */
export const OPERATOR_ONLY_ERRORS = {
  401: errorResponse('Missing or wrong token'),
  403: errorResponse('Not the operator token'),
};

/**
 * 400, 401 and 403 of a route that any token may call, within what it is allowed.
 *
 * @example
 * responses: { 200: { description: 'The space', content: json(SpaceInfo) }, ...TOKEN_ERRORS }
 */
export const TOKEN_ERRORS = {
  400: errorResponse('Invalid request'),
  401: errorResponse('Missing or wrong token'),
  403: errorResponse('Token not allowed here'),
};
