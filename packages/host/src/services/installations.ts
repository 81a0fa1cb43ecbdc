import type { Installation } from '@platform/api-client';
import { HOST_EVENT, WEBHOOK_EVENT_TYPES_BY_PLACE } from '@platform/events';
import type { Manifest } from '@platform/manifest';
import { configurationDefaults, settingsPlace, validateConfiguration } from '@platform/manifest';
import { generateSecret } from '@platform/webhooks';
import { decideInstall } from '../access/install-policy.js';
import type { Principal } from '../access/principal.js';
import { hashToken, randomToken, safeEqual } from '../auth.js';
import { destinationProblems } from '../delivery/destinations/index.js';
import { parseRetrySchedule } from '../delivery/schedule.js';
import { signingRules } from '../delivery/signature/index.js';
import { badRequest, conflict, HttpError, notFound } from '../errors.js';
import { validateWebhookUrl } from '../net/index.js';
import type {
  InstallationRecord,
  InstallationStatus,
  IntegrationRecord,
  StorageTx,
} from '../storage/index.js';
import { type HostContext, publicEndpoint, WEBHOOK_INTEGRATION } from './context.js';
import { installationSetupJobs, placeSetupEvents } from './dispatch.js';
import { ensureSigningKey } from './signing-keys.js';
import {
  endpointKeysOf,
  endpointRules,
  prepareEndpointWrite,
  refuseInvalidEndpointSettings,
} from './webhook-endpoint.js';

/** How an installation looks through the API: the `Installation` of `@platform/api-client`. */
export type InstallationView = Installation;

/** Who is writing a configuration: the operator (typo protection) or the integration itself (free keys). */
export type Writer = 'operator' | 'integration';

/** Every configuration problem of an installation, for the status machine and the API. */
export function configurationErrors(
  ctx: HostContext,
  integration: IntegrationRecord,
  target: InstallationRecord['target'],
  configuration: Record<string, unknown>,
): Array<{ key: string; message: string }> {
  const manifest = integration.manifest as Manifest;
  let errors = [...validateConfiguration(manifest, settingsPlace(manifest, target), configuration).errors];
  if (integration.name === WEBHOOK_INTEGRATION) {
    // A declared destination (a message broker) stands in for the URL the manifest requires otherwise.
    if (configuration.destination !== undefined && configuration.destination !== null) {
      errors = errors.filter((e) => e.key !== 'url' || configuration.url !== undefined);
    }
    errors.push(...webhookRules(ctx, target, configuration));
  }
  return errors;
}

/** docs/contracts.md "Webhook integration": an allowed URL and at least one event fitting the place. */
function webhookRules(
  ctx: HostContext,
  target: InstallationRecord['target'],
  configuration: Record<string, unknown>,
): Array<{ key: string; message: string }> {
  const errors: Array<{ key: string; message: string }> = [];
  if (typeof configuration.url === 'string' && configuration.url !== '') {
    const check = validateWebhookUrl(configuration.url, ctx.policy);
    if (!check.ok) errors.push({ key: 'url', message: check.message });
  }
  // Retry schedules (docs/contracts.md "Retry schedules"): a preset or an explicit list, checked on save.
  const schedule = parseRetrySchedule(configuration.retry_schedule);
  if (!schedule.ok) errors.push({ key: 'retry_schedule', message: schedule.message });
  const events = WEBHOOK_EVENT_TYPES_BY_PLACE[target === 'site' ? 'site' : 'space'];
  if (!events.some((name) => configuration[name] === true)) {
    errors.push({ key: events[0]!, message: `select at least one event (${events.join(', ')})` });
  }
  errors.push(...signingRules(configuration));
  // A declared destination (docs/architecture.md "Destinations"): a registered kind whose settings parse.
  for (const message of destinationProblems(configuration)) errors.push({ key: 'destination', message });
  // Endpoint settings (headers, auth, filter, rate_limit): services/webhook-endpoint.ts.
  errors.push(...endpointRules(ctx, configuration));
  return errors;
}

/**
 * Rejects keys an operator may not write: keys declared only for the other place (a site setting on a
 * space installation) always; keys the manifest does not declare anywhere, when the operator writes
 * (integrations may keep their own state, e.g. `oauth_credentials`).
 */
function checkKeys(
  integration: IntegrationRecord,
  target: InstallationRecord['target'],
  patch: Record<string, unknown>,
  writer: Writer,
): void {
  const manifest = integration.manifest as Manifest;
  const place = settingsPlace(manifest, target);
  const here = [
    ...Object.keys(manifest.configurations?.[place]?.properties ?? {}),
    ...endpointKeysOf(integration.name),
  ];
  for (const key of Object.keys(patch)) {
    if (here.includes(key)) continue;
    const other = (['account', 'site', 'space'] as const).find(
      (p) => p !== place && Object.hasOwn(manifest.configurations?.[p]?.properties ?? {}, key),
    );
    if (other) {
      throw badRequest(
        `configuration.${key} is a setting of ${integration.name}'s \`configurations.${other}\`, not of a ${target} installation; ` +
          `a ${target} installation accepts: ${here.join(', ') || '(none)'}.`,
      );
    }
    if (writer === 'operator') {
      throw badRequest(
        `configuration.${key} is not a setting of ${integration.name}; accepted: ${here.join(', ') || '(none)'}.`,
      );
    }
  }
}

/** The API view of an installation. */
export function view(
  ctx: HostContext,
  integration: IntegrationRecord | null,
  record: InstallationRecord,
): InstallationView {
  return {
    id: record.id,
    integration: record.integrationName,
    target: record.target,
    ...(record.spaceId ? { space: record.spaceId } : {}),
    ...(record.siteId ? { site: record.siteId } : {}),
    ...(record.organizationId ? { organization: record.organizationId } : {}),
    ...(record.ownerOrganization ? { owner: record.ownerOrganization } : {}),
    status: record.status,
    configuration: record.configuration,
    configurationErrors: integration
      ? configurationErrors(ctx, integration, record.target, record.configuration)
      : [],
    externalIds: record.externalIds,
    urls: { publicEndpoint: publicEndpoint(ctx, record.integrationName, record.id) },
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
  };
}

/**
 * Installing with a value that is wrong (not merely missing) answers 400 and creates nothing: a webhook
 * given a URL the host may not call is refused, not left `pending` to swallow every event. What is only
 * incomplete (a required setting not given yet, no event ticked: a `false` is a choice, not a mistake)
 * still installs `pending`, to be configured later.
 */
function refuseInvalidValues(
  errors: ReadonlyArray<{ key: string; message: string }>,
  given: Record<string, unknown>,
): void {
  const invalid = errors.filter((e) => Object.hasOwn(given, e.key) && given[e.key] !== false);
  if (invalid.length === 0) return;
  throw new HttpError(
    400,
    'invalid_configuration',
    invalid.map((e) => `configuration.${e.key}: ${e.message}`).join('; '),
    { configurationErrors: invalid },
  );
}

/**
 * Opt-in webhook settings (issue 28) whose wrong value an edit refuses (400, nothing changed) instead of
 * leaving the installation `pending`: a typo in a retry schedule must not stop an endpoint's deliveries.
 */
const REFUSED_WHEN_INVALID: ReadonlySet<string> = new Set(['retry_schedule']);

function refuseInvalidOptIns(
  errors: ReadonlyArray<{ key: string; message: string }>,
  patch: Record<string, unknown>,
): void {
  refuseInvalidValues(
    errors.filter((e) => REFUSED_WHEN_INVALID.has(e.key)),
    patch,
  );
}

/** What `install` takes (the body of `POST /v1/installations`). */
export interface InstallInput {
  integration: string;
  space?: string;
  site?: string;
  organization?: string;
  configuration: Record<string, unknown>;
  externalIds?: string[];
  /** The integration's install link token (installing an `unlisted` integration of another organization). */
  installLink?: string;
}

async function requireIntegration(ctx: HostContext, name: string): Promise<IntegrationRecord> {
  const integration = await ctx.storage.integrations.getLatest(name);
  if (!integration) throw notFound(`Integration "${name}"`);
  return integration;
}

/**
 * Installs an integration into a space, a site or an organization. Fires the installation set-up
 * event (and the space or site one for a space or a site) through the durable queue, in the same transaction.
 */
export async function install(
  ctx: HostContext,
  input: InstallInput,
  principal: Principal = { kind: 'operator' },
): Promise<InstallationView> {
  const places = (['space', 'site', 'organization'] as const).filter((p) => input[p] !== undefined);
  if (places.length > 1) {
    throw badRequest(`Give one of space, site or organization, not ${places.join(' and ')}.`);
  }
  const integration = await requireIntegration(ctx, input.integration);
  const manifest = integration.manifest as Manifest;
  const target = places[0] ?? 'organization';
  const targetId = input.space ?? input.site ?? input.organization ?? null;
  const decision = decideInstall({
    principal,
    integration: {
      name: integration.name,
      owner: manifest.organization ?? null,
      visibility: String(manifest.visibility),
    },
    holdsInstallLink:
      input.installLink !== undefined &&
      safeEqual(
        input.installLink,
        await ctx.storage.organizations.installLink(integration.name, randomToken('pil_')),
      ),
    target,
    targetId,
    directoryOwner:
      target === 'organization' || targetId === null
        ? null
        : await ctx.storage.organizations.ownerOf(target, targetId),
  });
  if (!decision.ok) throw decision.error;
  const organizationId =
    decision.organization ?? (target === 'organization' ? String(manifest.organization) : null);
  checkKeys(integration, target, input.configuration, 'operator');
  refuseInvalidEndpointSettings(ctx, integration.name, input.configuration);
  // Write-only values (custom header values, auth secrets) go to the credentials table, masked here.
  const endpoint = await prepareEndpointWrite(
    integration.name,
    input.configuration,
    { ...configurationDefaults(manifest, settingsPlace(manifest, target)), ...input.configuration },
    null,
  );
  const configuration = endpoint.configuration;
  const errors = configurationErrors(ctx, integration, target, configuration);
  refuseInvalidValues(errors, input.configuration);
  const status: InstallationStatus = errors.length === 0 ? 'active' : 'pending';
  const record = await ctx.storage.transaction(async (tx) => {
    const created = await tx.installations.create({
      integrationName: integration.name,
      target,
      spaceId: input.space ?? null,
      siteId: input.site ?? null,
      organizationId,
      ownerOrganization: decision.owner ?? (target === 'organization' ? organizationId : null),
      configuration,
      status,
      tokenHash: 'pending',
      externalIds: input.externalIds ?? [],
      spaceSelection: {
        mode: target === 'organization' ? 'all' : 'selected',
        spaces: input.space ? [input.space] : [],
      },
    });
    const withToken = await tx.installations.update(created.id, {
      tokenHash: hashToken(ctx.tokens.issue(created.id)),
    });
    if (integration.name === WEBHOOK_INTEGRATION) {
      await tx.webhookSecrets.set(created.id, generateSecret());
      await ensureSigningKey(tx, created.id, configuration);
    }
    if (endpoint.credentials) await tx.webhookCredentials.set(created.id, endpoint.credentials);
    await tx.jobs.enqueue(
      installationSetupJobs(
        withToken,
        [HOST_EVENT.installationSetup, ...placeSetupEvents(target, 'install')],
        ctx.storage.secrets,
      ),
    );
    return withToken;
  });
  ctx.notify.invocations();
  return view(ctx, integration, record);
}

/** Loads an installation or answers 404. */
export async function getInstallation(
  ctx: HostContext,
  id: string,
): Promise<{ record: InstallationRecord; integration: IntegrationRecord | null }> {
  const record = await ctx.storage.installations.get(id);
  if (!record) throw notFound(`Installation "${id}"`);
  return { record, integration: await ctx.storage.integrations.getLatest(record.integrationName) };
}

/** Applies a JSON merge patch (null deletes a key) to a configuration. */
export function mergePatch(
  base: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out;
}

/**
 * Edits an installation's configuration (merge patch), re-validates it and moves the status to
 * `active` or `pending` (a paused installation stays paused); fires the set-up event (and, for a site
 * installation, `site_installation_setup`) when the patch edits the configuration.
 */
export async function configure(
  ctx: HostContext,
  id: string,
  patch: { configuration?: Record<string, unknown>; externalIds?: string[] },
  writer: Writer,
): Promise<InstallationView> {
  const { record, integration } = await getInstallation(ctx, id);
  if (!integration)
    throw conflict(`The integration "${record.integrationName}" of this installation no longer exists.`);
  if (patch.configuration) checkKeys(integration, record.target, patch.configuration, writer);
  if (patch.configuration)
    refuseInvalidEndpointSettings(ctx, integration.name, patch.configuration, record.configuration);
  const merged = patch.configuration
    ? mergePatch(record.configuration, patch.configuration)
    : record.configuration;
  // Write-only values: a masked one keeps what is stored (read only when the patch touches them).
  const settled = patch.configuration
    ? await prepareEndpointWrite(integration.name, patch.configuration, merged, {
        configuration: record.configuration,
        credentials: () => ctx.storage.webhookCredentials.get(id),
      })
    : null;
  const configuration = settled ? settled.configuration : merged;
  const errors = configurationErrors(ctx, integration, record.target, configuration);
  if (patch.configuration) refuseInvalidOptIns(errors, patch.configuration);
  const valid = errors.length === 0;
  const status: InstallationStatus = record.status === 'paused' ? 'paused' : valid ? 'active' : 'pending';
  const updated = await ctx.storage.transaction(async (tx: StorageTx) => {
    const next = await tx.installations.update(id, {
      configuration,
      status,
      ...(patch.externalIds ? { externalIds: patch.externalIds } : {}),
    });
    if (integration.name === WEBHOOK_INTEGRATION) await ensureSigningKey(tx, id, configuration);
    if (settled?.credentialsChanged) await tx.webhookCredentials.set(id, settled.credentials);
    if (patch.configuration)
      await tx.jobs.enqueue(
        installationSetupJobs(
          next,
          [HOST_EVENT.installationSetup, ...placeSetupEvents(next.target, 'configure')],
          ctx.storage.secrets,
        ),
      );
    return next;
  });
  ctx.notify.invocations();
  return view(ctx, integration, updated);
}

/** Pauses (nothing is queued for it meanwhile) or resumes (to `active`, or `pending` if now invalid). */
export async function setPaused(ctx: HostContext, id: string, paused: boolean): Promise<InstallationView> {
  const { record, integration } = await getInstallation(ctx, id);
  const valid = integration
    ? configurationErrors(ctx, integration, record.target, record.configuration).length === 0
    : false;
  const status: InstallationStatus = paused ? 'paused' : valid ? 'active' : 'pending';
  const updated = await ctx.storage.installations.update(id, { status });
  return view(ctx, integration, updated);
}

/** Uninstalls: deletes the installation and cancels its queued work. */
export async function uninstall(ctx: HostContext, id: string): Promise<void> {
  const removed = await ctx.storage.installations.delete(id);
  if (!removed) throw notFound(`Installation "${id}"`);
}
