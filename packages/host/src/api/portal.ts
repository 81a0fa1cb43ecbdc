import { z } from '@hono/zod-openapi';
import type { TokenResolver } from '../access/resolve.js';
import { badRequest } from '../errors.js';
import { auditView } from '../services/audit.js';
import type { HostContext } from '../services/context.js';
import { createPortalSession, revokePortalSession } from '../services/portal.js';
import { createGuardedRouter } from './authorize.js';
import { errorResponse, TOKEN_ERRORS } from './responses.js';
import { given, route } from './route.js';
import { AuditList, AuditQuery, CreatePortalSessionBody, PortalSession } from './schemas.js';

const errors = { ...TOKEN_ERRORS, 404: errorResponse('Not found') };

/** Routes: subscriber portal sessions (open, revoke) and the audit log. */
export function portalAndAuditRoutes(ctx: HostContext, options: { resolver: TokenResolver }) {
  const app = createGuardedRouter(ctx);

  app.openapi(
    route('POST /v1/portal/sessions', {
      summary:
        'Open a subscriber portal session for one webhook installation or all of an organization: a link valid for minutes (default 15), revocable',
      body: CreatePortalSessionBody,
      ok: [201, 'Opened', PortalSession],
      errors,
    }),
    async (c) => c.json(await createPortalSession(ctx, c.get('principal'), c.req.valid('json')), 201),
  );

  app.openapi(
    route('DELETE /v1/portal/sessions/{sessionId}', {
      summary: 'Revoke a portal session',
      params: z.object({ sessionId: z.string() }),
      ok: [204, 'Revoked'],
      errors,
    }),
    async (c) => {
      await revokePortalSession(ctx, options.resolver, c.get('principal'), c.req.valid('param').sessionId);
      return c.body(null, 204);
    },
  );

  app.openapi(
    route('GET /v1/audit', {
      summary:
        'The audit log, newest first: who did what to which resource (an organization: what concerns it)',
      query: AuditQuery,
      ok: [200, 'Entries', AuditList],
      errors,
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
        ...given({ organizationId, action: q.action, resourceId: q.resource, before: q.cursor }),
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
