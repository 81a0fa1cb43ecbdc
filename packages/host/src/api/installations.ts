import { z } from '@hono/zod-openapi';
import { HOST_EVENT } from '@platform/events';
import { organizationOf } from '../access/principal.js';
import { forbidden } from '../errors.js';
import { audit, installationEntry } from '../services/audit.js';
import { type HostContext, WEBHOOK_INTEGRATION } from '../services/context.js';
import {
  configure,
  getInstallation,
  install,
  setPaused,
  uninstall,
  view,
} from '../services/installations.js';
import type { InvocationLogRecord } from '../storage/index.js';
import { createGuardedRouter } from './authorize.js';

import { errorResponse, TOKEN_ERRORS } from './responses.js';
import { given, route } from './route.js';
import {
  Installation,
  InstallationList,
  InstallationQuery,
  InstallBody,
  InvocationList,
  InvocationQuery,
  PatchInstallationBody,
} from './schemas.js';

const errors = { ...TOKEN_ERRORS, 404: errorResponse('No such installation or integration') };
/** The API view of one invocation with its log lines (`GET …/logs`, and an integration's runs). */
export function invocationView(log: InvocationLogRecord) {
  return {
    id: log.id,
    eventType: log.eventType,
    eventId: log.eventId,
    status: log.status,
    durationMs: log.durationMs,
    lines: log.lines,
    createdAt: new Date(log.createdAt).toISOString(),
  };
}

const IdParam = z.object({ id: z.string().openapi({ example: 'inst_4f2a9c' }) });

/** Routes: install, get, list, configure, pause, resume, uninstall, invocation logs. */
export function installationRoutes(ctx: HostContext) {
  const app = createGuardedRouter(ctx);

  app.openapi(
    route('POST /v1/installations', {
      summary: 'Install an integration into a space, a site or the organization',
      description: `Status is \`active\` when the configuration is complete and valid, \`pending\` while it is incomplete; a value given that is wrong (a webhook URL the host may not call) answers 400 \`invalid_configuration\` and installs nothing. Fires \`${HOST_EVENT.installationSetup}\` (and \`${HOST_EVENT.spaceInstallationSetup}\` or \`${HOST_EVENT.siteInstallationSetup}\` for a space or a site).`,
      body: InstallBody,
      ok: [201, 'Installed', Installation],
      errors,
    }),
    async (c) => {
      const principal = c.get('principal');
      const installed = await install(ctx, c.req.valid('json'), principal);
      await audit(
        ctx,
        principal,
        installationEntry('installation.create', installed.id, installed.owner, {
          integration: installed.integration,
          target: installed.target,
          at: installed.space ?? installed.site ?? installed.organization ?? null,
          configurationKeys: Object.keys(installed.configuration),
        }),
      );
      return c.json(installed, 201);
    },
  );

  app.openapi(
    route('GET /v1/installations', {
      summary: 'List installations',
      query: InstallationQuery,
      ok: [200, 'Installations', InstallationList],
      errors,
    }),
    async (c) => {
      const q = c.req.valid('query');
      const principal = c.get('principal');
      const owner = organizationOf(principal);
      let records = await ctx.storage.installations.list({
        ...given({ integrationName: q.integration, spaceId: q.space, siteId: q.site }),
        ...(owner !== null ? { ownerOrganization: owner } : {}),
      });
      if (principal.kind === 'portal') {
        // a portal session sees its installation, or its organization's webhook installations
        records = records.filter((r) =>
          principal.installationId !== null
            ? r.id === principal.installationId
            : r.integrationName === WEBHOOK_INTEGRATION,
        );
      }
      const integrations = new Map((await ctx.storage.integrations.list()).map((i) => [i.name, i]));
      return c.json(
        { installations: records.map((r) => view(ctx, integrations.get(r.integrationName) ?? null, r)) },
        200,
      );
    },
  );

  app.openapi(
    route('GET /v1/installations/{id}', {
      summary: "Get an installation (operator, or the installation's own token)",
      params: IdParam,
      ok: [200, 'Installation', Installation],
      errors,
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { record, integration } = await getInstallation(ctx, id);
      return c.json(view(ctx, integration, record), 200);
    },
  );

  app.openapi(
    route('PATCH /v1/installations/{id}', {
      summary: `Edit the configuration (JSON merge patch); fires ${HOST_EVENT.installationSetup} (and ${HOST_EVENT.siteInstallationSetup} for a site) and re-validates the status`,
      params: IdParam,
      body: PatchInstallationBody,
      ok: [200, 'Installation', Installation],
      errors,
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const principal = c.get('principal');
      // people (operator, organization, portal) get typo protection; the integration may keep its own keys
      const writer = principal.kind === 'installation' ? 'integration' : 'operator';
      const patch = c.req.valid('json');
      if (principal.kind === 'portal' && patch.externalIds !== undefined) {
        throw forbidden(
          'A portal session edits the endpoint URL and the selected events only, not externalIds.',
        );
      }
      const updated = await configure(ctx, id, patch, writer);
      await audit(
        ctx,
        principal,
        // which keys changed, never their values (a configuration may hold credentials)
        installationEntry('installation.configure', id, updated.owner, {
          configurationKeys: Object.keys(patch.configuration ?? {}),
          ...(patch.externalIds ? { externalIds: patch.externalIds } : {}),
          status: updated.status,
        }),
      );
      return c.json(updated, 200);
    },
  );

  for (const action of ['pause', 'resume'] as const) {
    app.openapi(
      route(`POST /v1/installations/{id}/${action}`, {
        summary:
          action === 'pause'
            ? 'Pause: no events or webhooks until resumed'
            : 'Resume: back to active (or pending if the configuration is incomplete)',
        params: IdParam,
        ok: [200, 'Installation', Installation],
        errors,
      }),
      async (c) => {
        const updated = await setPaused(ctx, c.req.valid('param').id, action === 'pause');
        await audit(
          ctx,
          c.get('principal'),
          installationEntry(`installation.${action}`, updated.id, updated.owner, { status: updated.status }),
        );
        return c.json(updated, 200);
      },
    );
  }

  app.openapi(
    route('DELETE /v1/installations/{id}', {
      summary: 'Uninstall (queued work is cancelled)',
      params: IdParam,
      ok: [204, 'Uninstalled'],
      errors,
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { record } = await getInstallation(ctx, id);
      await uninstall(ctx, id);
      await audit(
        ctx,
        c.get('principal'),
        installationEntry('installation.delete', id, record.ownerOrganization, {
          integration: record.integrationName,
        }),
      );
      return c.body(null, 204);
    },
  );

  app.openapi(
    route('GET /v1/installations/{id}/logs', {
      summary: "Invocations of the installation's integration, newest first, with their log lines",
      params: IdParam,
      query: InvocationQuery,
      ok: [200, 'Invocations', InvocationList],
      errors,
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await getInstallation(ctx, id);
      const q = c.req.valid('query');
      const logs = await ctx.storage.invocationLogs.list(id, given({ limit: q.limit, since: q.since }));
      return c.json(
        {
          invocations: logs.map(invocationView),
        },
        200,
      );
    },
  );

  return app;
}
