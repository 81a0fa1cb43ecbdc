import { createRoute, z } from '@hono/zod-openapi';
import type { TokenResolver } from '../access/resolve.js';
import { badRequest } from '../errors.js';
import { auditView } from '../services/audit.js';
import type { HostContext } from '../services/context.js';
import { createPortalSession, revokePortalSession } from '../services/portal.js';
import { createGuardedRouter } from './authorize.js';
import { errorResponse, json, TOKEN_ERRORS } from './responses.js';
import { AuditList, AuditQuery, CreatePortalSessionBody, PortalSession } from './schemas.js';

const errors = { ...TOKEN_ERRORS, 404: errorResponse('Not found') };

/** Routes: subscriber portal sessions (open, revoke) and the audit log. */
export function portalAndAuditRoutes(ctx: HostContext, options: { resolver: TokenResolver }) {
  const app = createGuardedRouter(ctx);

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/portal/sessions',
      summary:
        'Open a subscriber portal session for one webhook installation or all of an organization: a link valid for minutes (default 15), revocable',
      request: { body: { required: true, content: json(CreatePortalSessionBody) } },
      responses: { 201: { description: 'Opened', content: json(PortalSession) }, ...errors },
    }),
    async (c) => c.json(await createPortalSession(ctx, c.get('principal'), c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/portal/sessions/{sessionId}',
      summary: 'Revoke a portal session',
      request: { params: z.object({ sessionId: z.string() }) },
      responses: { 204: { description: 'Revoked' }, ...errors },
    }),
    async (c) => {
      await revokePortalSession(ctx, options.resolver, c.get('principal'), c.req.valid('param').sessionId);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/audit',
      summary:
        'The audit log, newest first: who did what to which resource (an organization: what concerns it)',
      request: { query: AuditQuery },
      responses: { 200: { description: 'Entries', content: json(AuditList) }, ...errors },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const principal = c.get('principal');
      if (
        principal.kind === 'organization' &&
        q.organization &&
        q.organization !== principal.organizationId
      ) {
        throw badRequest(
          `organization: this token reads only the audit log of "${principal.organizationId}".`,
        );
      }
      const organizationId = principal.kind === 'organization' ? principal.organizationId : q.organization;
      const limit = q.limit ?? 100;
      const entries = await ctx.storage.audit.list({
        ...(organizationId ? { organizationId } : {}),
        ...(q.action ? { action: q.action } : {}),
        ...(q.resource ? { resourceId: q.resource } : {}),
        ...(q.cursor ? { before: q.cursor } : {}),
        limit: limit + 1,
      });
      const page = entries.slice(0, limit);
      return c.json(
        {
          entries: page.map(auditView),
          nextCursor: entries.length > limit ? (page[page.length - 1]?.id ?? null) : null,
        },
        200,
      );
    },
  );

  return app;
}
