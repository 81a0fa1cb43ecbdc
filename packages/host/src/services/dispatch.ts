import { HOST_EVENT } from '@platform/events';
import { currentScopeName, EVENT_SCOPES, type Manifest } from '@platform/manifest';
import { passesFilter } from '../delivery/endpoint/index.js';
import type { DeliverJobPayload } from '../delivery/payload.js';
import type { InvokeJobPayload } from '../invocation/payload.js';
import { type SecretBox, sealConfiguration } from '../secrets/index.js';
import type { EnqueueInput, InstallationRecord, IntegrationRecord } from '../storage/index.js';
import { newSortableId } from '../storage/index.js';
import { WEBHOOK_INTEGRATION } from './names.js';

export type { DeliverJobPayload } from '../delivery/payload.js';
export type { InvokeJobPayload } from '../invocation/payload.js';

/** A new event id (`evt_...`, sorting by creation time; see `newSortableId`). */
export function newEventId(): string {
  return newSortableId('evt');
}

/** The host's set-up events: the installation's own, and the one of its place (space or site). @example const t: SetupEventType = 'site_installation_setup'; */
export type SetupEventType =
  | typeof HOST_EVENT.installationSetup
  | typeof HOST_EVENT.spaceInstallationSetup
  | typeof HOST_EVENT.siteInstallationSetup;

/** The body of one set-up event of an installation (docs/contracts.md "Events"). */
function setupEvent(
  installation: InstallationRecord,
  type: SetupEventType,
  box: SecretBox,
): InvokeJobPayload['event'] {
  const base = { eventId: newEventId(), installationId: installation.id };
  // The job waits in the queue, and stays in it after it ran (retention): its secrets are sealed there
  // too, and opened by the invocation worker (openSetupEvent).
  const configuration = sealConfiguration(box, installation.configuration);
  const { status } = installation;
  switch (type) {
    case HOST_EVENT.installationSetup:
      return { type, ...base, status, target: installation.target, configuration };
    case HOST_EVENT.spaceInstallationSetup:
      return { type, ...base, spaceId: installation.spaceId ?? '', configuration };
    case HOST_EVENT.siteInstallationSetup:
      return { type, ...base, siteId: installation.siteId ?? '', status, configuration };
  }
}

/**
 * The set-up jobs of an installation: `installation_setup`, plus the event of its place when it lives
 * in one (`space_installation_setup` on install, `site_installation_setup` on install and on every
 * configuration edit; see {@link placeSetupEvents}).
 */
export function installationSetupJobs(
  installation: InstallationRecord,
  types: readonly SetupEventType[],
  box: SecretBox,
): EnqueueInput[] {
  return types.map((type) => ({
    kind: 'invoke',
    installationId: installation.id,
    eventId: null,
    payload: { event: setupEvent(installation, type, box) },
  }));
}

/**
 * The place set-up events an installation gets besides `installation_setup`: on install, the one of
 * its space or site; on a configuration edit, the site one only (a space installation is told of edits
 * by `installation_setup` alone).
 *
 * @example
 * placeSetupEvents('site', 'configure'); // ['site_installation_setup']
 */
export function placeSetupEvents(
  target: InstallationRecord['target'],
  moment: 'install' | 'configure',
): SetupEventType[] {
  if (target === 'site') return [HOST_EVENT.siteInstallationSetup];
  if (target === 'space' && moment === 'install') return [HOST_EVENT.spaceInstallationSetup];
  return [];
}

/** Does the integration's manifest grant the scope an event type needs (docs/contracts.md "Scopes")? */
export function hasScopeFor(integration: Pick<IntegrationRecord, 'manifest'>, type: string): boolean {
  const needed = (EVENT_SCOPES as Record<string, string | null | undefined>)[type];
  if (needed === undefined) return false;
  if (needed === null) return true;
  // Stored manifests hold current names (the loader renames); an old name still counts as its new one.
  return (integration.manifest as Manifest).scopes.some((scope) => currentScopeName(scope) === needed);
}

/**
 * The jobs an accepted event creates: a webhook delivery for each webhook installation that selected
 * its type (and whose payload filter, if any, the event passes), an envelope dispatch for each other
 * installation whose integration has the scope. With `traceparent` (tracing on), each job's payload carries
 * it: the trace survives the durable queue. `filtered` collects the webhook installations whose filter
 * kept the event from them.
 */
export function fanOutJobs(
  event: { type: string; eventId: string } & Record<string, unknown>,
  targets: ReadonlyArray<{
    installation: InstallationRecord;
    integration: Pick<IntegrationRecord, 'name' | 'manifest'>;
  }>,
  traceparent?: string,
  filtered?: string[],
): EnqueueInput[] {
  const jobs: EnqueueInput[] = [];
  for (const { installation, integration } of targets) {
    if (!hasScopeFor(integration, event.type)) continue;
    const job = { installationId: installation.id, eventId: event.eventId };
    const trace = traceparent === undefined ? {} : { traceparent };
    if (integration.name === WEBHOOK_INTEGRATION) {
      if (installation.configuration[event.type] !== true) continue;
      // The endpoint's payload filter (docs/contracts.md "Endpoint settings"): no delivery, only a count.
      if (!passesFilter(installation.configuration, event)) {
        filtered?.push(installation.id);
        continue;
      }
      const payload = {
        eventType: event.type,
        body: JSON.stringify({ ...event, installationId: installation.id }),
        ...trace,
      } satisfies DeliverJobPayload;
      jobs.push({
        kind: 'deliver',
        ...job,
        payload,
        // A rate-limited endpoint's delivery (due now, as any) is not handed over to the delivery thread
        // (only jobs without a runAt are): it goes through the claim, which paces it (queue-engine.ts).
        ...(installation.configuration.rate_limit === undefined ? {} : { runAt: Date.now() }),
      });
    } else {
      const payload = {
        event: { ...event, installationId: installation.id },
        ...trace,
      } satisfies InvokeJobPayload;
      jobs.push({ kind: 'invoke', ...job, payload });
    }
  }
  return jobs;
}
