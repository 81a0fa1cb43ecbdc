import { HOST_EVENT } from '@platform/events';
import { currentScopeName, EVENT_SCOPES, type Manifest } from '@platform/manifest';
import type { EnqueueInput, InstallationRecord, IntegrationRecord } from '../storage/index.js';
import { newSortableId } from '../storage/index.js';
import { WEBHOOK_INTEGRATION } from './names.js';

/** Payload of an `invoke` job: the event to post to the integration. */
export interface InvokeJobPayload {
  event: { type: string; eventId: string } & Record<string, unknown>;
}

/** Payload of a `deliver` job: the exact bytes to POST on every attempt, and the event type. */
export interface DeliverJobPayload {
  eventType: string;
  body: string;
}

/** A new event id (`evt_...`, sorting by creation time; see `newSortableId`). */
export function newEventId(): string {
  return newSortableId('evt');
}

/** The set-up jobs (installation, and space for a space) of an installation. */
export function installationSetupJobs(
  installation: InstallationRecord,
  types: ReadonlyArray<typeof HOST_EVENT.installationSetup | typeof HOST_EVENT.spaceInstallationSetup>,
): EnqueueInput[] {
  return types.map((type) => {
    const eventId = newEventId();
    const event =
      type === HOST_EVENT.installationSetup
        ? {
            type,
            eventId,
            installationId: installation.id,
            status: installation.status,
            target: installation.target,
            configuration: installation.configuration,
          }
        : {
            type,
            eventId,
            installationId: installation.id,
            spaceId: installation.spaceId ?? '',
            configuration: installation.configuration,
          };
    return { kind: 'invoke', installationId: installation.id, eventId: null, payload: { event } };
  });
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
 * its type, an envelope dispatch for each other installation whose integration has the scope.
 */
export function fanOutJobs(
  event: { type: string; eventId: string } & Record<string, unknown>,
  targets: ReadonlyArray<{
    installation: InstallationRecord;
    integration: Pick<IntegrationRecord, 'name' | 'manifest'>;
  }>,
): EnqueueInput[] {
  const jobs: EnqueueInput[] = [];
  for (const { installation, integration } of targets) {
    if (!hasScopeFor(integration, event.type)) continue;
    if (integration.name === WEBHOOK_INTEGRATION) {
      if (installation.configuration[event.type] !== true) continue;
      const payload: DeliverJobPayload = {
        eventType: event.type,
        body: JSON.stringify({ ...event, installationId: installation.id }),
      };
      jobs.push({
        kind: 'deliver',
        installationId: installation.id,
        eventId: event.eventId,
        payload: { ...payload },
      });
    } else {
      const payload: InvokeJobPayload = { event: { ...event, installationId: installation.id } };
      jobs.push({
        kind: 'invoke',
        installationId: installation.id,
        eventId: event.eventId,
        payload: { ...payload },
      });
    }
  }
  return jobs;
}
