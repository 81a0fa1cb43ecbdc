import { z } from '@hono/zod-openapi';
import type { TokenResolver } from '../access/resolve.js';
import { notFound } from '../errors.js';
import type { HostContext } from '../services/context.js';
import {
  createOrganization,
  createToken,
  removeResourceOwner,
  revokeToken,
  setResourceOwner,
  tokenView,
} from '../services/organizations.js';
import type { OrganizationRecord } from '../storage/index.js';
import { createGuardedRouter } from './authorize.js';
import { errorResponse, TOKEN_ERRORS } from './responses.js';
import { route } from './route.js';
import {
  CreatedToken,
  CreateOrganizationBody,
  CreateTokenBody,
  Organization,
  OrganizationList,
  OrganizationResources,
  OrganizationTokenList,
  OwnerSet,
  SetOwnerBody,
  WhoAmI,
} from './schemas.js';

const errors = { ...TOKEN_ERRORS, 404: errorResponse('Not found') };
const OrgParam = z.object({ organization: z.string() });

const organizationView = (record: OrganizationRecord) => ({
  id: record.id,
  name: record.name,
  createdAt: new Date(record.createdAt).toISOString(),
});

/** Routes: who am I, organizations, their tokens, and the directory of who owns each space and site. */
export function organizationRoutes(ctx: HostContext, options: { resolver: TokenResolver; version: string }) {
  const app = createGuardedRouter(ctx);

  app.openapi(
    route('GET /v1/whoami', {
      summary: 'Who this token is: its principal, organization, scopes and expiry',
      ok: [200, 'Principal', WhoAmI],
      errors,
    }),
    async (c) => {
      const principal = c.get('principal');
      const organizationId =
        principal.kind === 'organization' || principal.kind === 'portal' ? principal.organizationId : null;
      const organization = organizationId ? await ctx.storage.organizations.get(organizationId) : null;
      const token =
        principal.kind === 'organization' ? await ctx.storage.accessTokens.getToken(principal.tokenId) : null;
      const session =
        principal.kind === 'portal' ? await ctx.storage.accessTokens.getSession(principal.sessionId) : null;
      return c.json(
        {
          principal: principal.kind,
          organization: organization ? organizationView(organization) : null,
          token: token
            ? {
                id: token.id,
                name: token.name,
                scopes: token.scopes,
                expiresAt: token.expiresAt === null ? null : new Date(token.expiresAt).toISOString(),
              }
            : null,
          installation:
            principal.kind === 'installation'
              ? principal.installationId
              : principal.kind === 'portal'
                ? principal.installationId
                : null,
          portal: session
            ? {
                session: session.id,
                installation: session.installationId,
                expiresAt: new Date(session.expiresAt).toISOString(),
              }
            : null,
          host: { version: options.version, url: ctx.baseUrl() },
        },
        200,
      );
    },
  );

  app.openapi(
    route('POST /v1/organizations', {
      summary:
        'Create an organization (the platform also creates them by naming them: the directory, or a manifest the operator publishes)',
      body: CreateOrganizationBody,
      ok: [201, 'Created', Organization],
      errors: { 409: errorResponse('The id is taken'), ...errors },
    }),
    async (c) => {
      const created = await createOrganization(ctx, c.get('principal'), c.req.valid('json'));
      return c.json(organizationView(created), 201);
    },
  );

  app.openapi(
    route('GET /v1/organizations', {
      summary: 'Organizations (an organization token: only its own)',
      ok: [200, 'Organizations', OrganizationList],
      errors,
    }),
    async (c) => {
      const principal = c.get('principal');
      const all = await ctx.storage.organizations.list();
      const list =
        principal.kind === 'organization' ? all.filter((o) => o.id === principal.organizationId) : all;
      return c.json({ organizations: list.map(organizationView) }, 200);
    },
  );

  const requireOrganization = async (id: string) => {
    const record = await ctx.storage.organizations.get(id);
    if (!record) throw notFound(`Organization "${id}"`);
    return record;
  };

  app.openapi(
    route('GET /v1/organizations/{organization}', {
      summary: 'One organization',
      params: OrgParam,
      ok: [200, 'Organization', Organization],
      errors,
    }),
    async (c) => c.json(organizationView(await requireOrganization(c.req.valid('param').organization)), 200),
  );

  app.openapi(
    route('GET /v1/organizations/{organization}/resources', {
      summary: 'The spaces and sites the directory says the organization owns',
      params: OrgParam,
      ok: [200, 'Resources', OrganizationResources],
      errors,
    }),
    async (c) => {
      const { organization } = c.req.valid('param');
      await requireOrganization(organization);
      const owned = await ctx.storage.organizations.ownedBy(organization);
      return c.json(
        {
          organization,
          spaces: owned.filter((r) => r.kind === 'space').map((r) => r.resourceId),
          sites: owned.filter((r) => r.kind === 'site').map((r) => r.resourceId),
        },
        200,
      );
    },
  );

  app.openapi(
    route('POST /v1/organizations/{organization}/tokens', {
      summary:
        'Create an organization token: answered once, stored hashed. An organization token grants only scopes it holds.',
      params: OrgParam,
      body: CreateTokenBody,
      ok: [201, 'Created', CreatedToken],
      errors,
    }),
    async (c) => {
      const { organization } = c.req.valid('param');
      return c.json(await createToken(ctx, c.get('principal'), organization, c.req.valid('json')), 201);
    },
  );

  app.openapi(
    route('GET /v1/organizations/{organization}/tokens', {
      summary: "The organization's tokens (never the tokens themselves), revoked and expired ones included",
      params: OrgParam,
      ok: [200, 'Tokens', OrganizationTokenList],
      errors,
    }),
    async (c) => {
      const { organization } = c.req.valid('param');
      await requireOrganization(organization);
      const tokens = await ctx.storage.accessTokens.listTokens(organization);
      return c.json({ tokens: tokens.map((t) => tokenView(t)) }, 200);
    },
  );

  app.openapi(
    route('DELETE /v1/organizations/{organization}/tokens/{tokenId}', {
      summary: 'Revoke a token (at once on this host; within 5 s on other hosts of the same database)',
      params: z.object({ organization: z.string(), tokenId: z.string() }),
      ok: [204, 'Revoked'],
      errors,
    }),
    async (c) => {
      const { organization, tokenId } = c.req.valid('param');
      await revokeToken(ctx, options.resolver, c.get('principal'), organization, tokenId);
      return c.body(null, 204);
    },
  );

  for (const kind of ['space', 'site'] as const) {
    const param = kind === 'space' ? 'spaceId' : 'siteId';
    const Params = z.object({ [param]: z.string().min(1) }) as z.ZodObject<Record<string, z.ZodString>>;
    app.openapi(
      route(`PUT /v1/${kind}s/{${param}}/owner`, {
        summary: `Record which organization owns a ${kind} (the platform keeps this directory up to date)`,
        description: `The organization is created when new. Installations of the ${kind} made without a known owner are given to it. From then on the ${kind}'s events reach only installations its owner (or the operator) made there.`,
        params: Params,
        body: SetOwnerBody,
        ok: [200, 'Recorded', OwnerSet],
        errors,
      }),
      async (c) => {
        const id = String(c.req.valid('param')[param]);
        const { organization } = c.req.valid('json');
        return c.json(await setResourceOwner(ctx, c.get('principal'), kind, id, organization), 200);
      },
    );
    app.openapi(
      route(`DELETE /v1/${kind}s/{${param}}/owner`, {
        summary: `Forget the owner of a ${kind}: only the operator's installations receive its events then`,
        params: Params,
        ok: [204, 'Forgotten'],
        errors,
      }),
      async (c) => {
        await removeResourceOwner(ctx, c.get('principal'), kind, String(c.req.valid('param')[param]));
        return c.body(null, 204);
      },
    );
  }

  return app;
}
