import { z } from '@hono/zod-openapi';
import type { Manifest } from '@platform/manifest';
import { organizationOf, type Principal } from '../access/principal.js';
import { randomToken } from '../auth.js';
import { conflict, notFound } from '../errors.js';
import { audit } from '../services/audit.js';
import type { HostContext } from '../services/context.js';
import { WEBHOOK_INTEGRATION } from '../services/context.js';
import {
  integrationIconUrl,
  integrationView,
  ownerOfIntegration,
  publish,
} from '../services/integrations.js';
import type { IntegrationRecord } from '../storage/index.js';
import { createGuardedRouter } from './authorize.js';
import { invocationView } from './installations.js';
import { errorResponse, OPERATOR_ONLY_ERRORS } from './responses.js';
import { given, route } from './route.js';
import {
  InstallLink,
  Integration,
  IntegrationList,
  InvocationQuery,
  Marketplace,
  PublishIntegrationBody,
  RunList,
} from './schemas.js';

/** The latest version of an integration, or 404. */
async function installLinkOwner(ctx: HostContext, name: string): Promise<IntegrationRecord> {
  const latest = await ctx.storage.integrations.getLatest(name);
  if (!latest) throw notFound(`Integration "${name}"`);
  return latest;
}

/** The integration's install link token (made at the first ask). */
async function installLinkOf(ctx: HostContext, name: string): Promise<string> {
  await installLinkOwner(ctx, name);
  return ctx.storage.organizations.installLink(name, randomToken('pil_'));
}

/** The audit entries of a publish: the version, and a change of visibility when there was one. */
async function auditPublish(ctx: HostContext, principal: Principal, record: IntegrationRecord) {
  const versions = await ctx.storage.integrations.listVersions(record.name);
  const before = versions.find((v) => v.version !== record.version);
  const visibility = String((record.manifest as Manifest).visibility);
  const entry = {
    resourceType: 'integration',
    resourceId: record.name,
    organizationId: ownerOfIntegration(record),
  };
  await audit(ctx, principal, {
    ...entry,
    action: 'integration.publish',
    changes: { version: record.version, visibility, dev: record.devMode },
  });
  const previous = before ? String((before.manifest as Manifest).visibility) : null;
  if (previous !== null && previous !== visibility) {
    await audit(ctx, principal, {
      ...entry,
      action: 'integration.visibility',
      changes: { from: previous, to: visibility },
    });
  }
}

const errors = { 400: errorResponse('Invalid manifest or request'), ...OPERATOR_ONLY_ERRORS };
/** The `{name}` of an integration's routes. */
const NameParam = z.object({ name: z.string() });
/** The errors of a route that names an integration: also 404. */
const namedErrors = { 404: errorResponse('Not found'), ...errors };

/** Routes: publish, list, get and unpublish integrations. */
export function integrationRoutes(ctx: HostContext) {
  const app = createGuardedRouter(ctx);

  app.openapi(
    route('POST /v1/integrations', {
      summary: 'Publish an integration version (manifest + built bundle)',
      body: PublishIntegrationBody,
      ok: [201, 'Published', Integration],
      errors: { 409: errorResponse('Version exists'), ...errors },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const principal = c.get('principal');
      const record = await publish(ctx, body, principal);
      await auditPublish(ctx, principal, record);
      return c.json(integrationView(ctx, record), 201);
    },
  );

  app.openapi(
    route('GET /v1/integrations', {
      summary: 'List published integrations (latest version of each)',
      ok: [200, 'Integrations', IntegrationList],
      errors,
    }),
    async (c) => {
      const owner = organizationOf(c.get('principal'));
      const list = (await ctx.storage.integrations.list()).filter(
        (record) => owner === null || ownerOfIntegration(record) === owner,
      );
      return c.json({ integrations: list.map((record) => integrationView(ctx, record)) }, 200);
    },
  );

  app.openapi(
    route('GET /v1/integrations/{name}', {
      summary: 'Get the latest version of an integration',
      params: NameParam,
      ok: [200, 'Integration', Integration],
      errors: namedErrors,
    }),
    async (c) => {
      const record = await ctx.storage.integrations.getLatest(c.req.valid('param').name);
      if (!record) throw notFound(`Integration "${c.req.valid('param').name}"`);
      return c.json(integrationView(ctx, record), 200);
    },
  );

  app.openapi(
    route('DELETE /v1/integrations/{name}', {
      summary: 'Unpublish an integration: every version (refused while it is installed)',
      params: NameParam,
      ok: [204, 'Unpublished'],
      errors: { 409: errorResponse('Still installed, or built in'), ...namedErrors },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      if (name === WEBHOOK_INTEGRATION) {
        throw conflict(
          `"${name}" is built into the host and published again at every start; it cannot be unpublished.`,
        );
      }
      const installed = await ctx.storage.installations.list({ integrationName: name });
      if (installed.length > 0) {
        const ids = installed.slice(0, 5).map((i) => i.id);
        throw conflict(
          `Integration "${name}" is installed ${installed.length} time(s) (${ids.join(', ')}${installed.length > 5 ? ', ...' : ''}); uninstall those first.`,
        );
      }
      const latest = await ctx.storage.integrations.getLatest(name);
      if ((await ctx.storage.integrations.remove(name)) === 0) throw notFound(`Integration "${name}"`);
      await audit(ctx, c.get('principal'), {
        action: 'integration.delete',
        resourceType: 'integration',
        resourceId: name,
        organizationId: latest ? ownerOfIntegration(latest) : null,
      });
      return c.body(null, 204);
    },
  );

  app.openapi(
    route('GET /v1/integrations/{name}/install-link', {
      summary:
        'The install link token of an integration: another organization installs an `unlisted` integration only with it (`installLink` of POST /v1/installations)',
      params: NameParam,
      ok: [200, 'Install link', InstallLink],
      errors: namedErrors,
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      return c.json({ integration: name, installLink: await installLinkOf(ctx, name) }, 200);
    },
  );
  app.openapi(
    route('POST /v1/integrations/{name}/install-link/rotate', {
      summary:
        'Replace the install link token: the old one stops working at once (installations made with it stay)',
      params: NameParam,
      ok: [200, 'Install link', InstallLink],
      errors: namedErrors,
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      const latest = await installLinkOwner(ctx, name);
      await ctx.storage.organizations.rotateInstallLink(name, randomToken('pil_'));
      await audit(ctx, c.get('principal'), {
        action: 'integration.install_link_rotate',
        resourceType: 'integration',
        resourceId: name,
        organizationId: ownerOfIntegration(latest),
      });
      return c.json({ integration: name, installLink: await installLinkOf(ctx, name) }, 200);
    },
  );

  app.openapi(
    route('GET /v1/integrations/{name}/runs', {
      summary:
        "The integration's invocations across every installation, newest first, with their log lines: its author's view (no installation's configuration or secrets)",
      params: NameParam,
      query: InvocationQuery,
      ok: [200, 'Runs', RunList],
      errors: namedErrors,
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      await installLinkOwner(ctx, name);
      const q = c.req.valid('query');
      const logs = await ctx.storage.invocationLogs.listByIntegration(
        name,
        given({ limit: q.limit, since: q.since }),
      );
      return c.json(
        {
          runs: logs.map((l) => ({ ...invocationView(l), installationId: l.installationId })),
        },
        200,
      );
    },
  );

  app.openapi(
    route('GET /v1/marketplace', {
      summary: 'The public integrations any organization may install',
      ok: [200, 'Marketplace', Marketplace],
      errors,
    }),
    async (c) => {
      const list = (await ctx.storage.integrations.list()).filter(
        (record) => (record.manifest as Manifest).visibility === 'public',
      );
      return c.json(
        {
          integrations: list.map((record) => {
            const manifest = record.manifest as Manifest;
            return {
              name: record.name,
              title: record.title,
              description: manifest.description,
              organization: ownerOfIntegration(record),
              iconUrl: integrationIconUrl(ctx, record),
              categories: [...((manifest as { categories?: string[] }).categories ?? [])],
              scopes: [...manifest.scopes],
              version: record.version,
            };
          }),
        },
        200,
      );
    },
  );

  return app;
}
