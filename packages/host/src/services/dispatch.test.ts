import {
  EVENT_CATALOGUE,
  PLATFORM_EVENT_TYPES,
  sampleEvent,
  WEBHOOK_EVENT_TYPES,
  WebhookPayloadSchema,
} from '@platform/events';
import { describe, expect, it } from 'vitest';
import type { InstallationRecord } from '../storage/index.js';
import { WEBHOOK_INTEGRATION } from './context.js';
import { type DeliverJobPayload, fanOutJobs, type InvokeJobPayload } from './dispatch.js';

function installation(configuration: Record<string, unknown>): InstallationRecord {
  return {
    id: 'inst_1',
    integrationName: WEBHOOK_INTEGRATION,
    target: 'site',
    spaceId: 'space_dev',
    siteId: 'site_dev',
    organizationId: null,
    configuration,
    status: 'active',
    tokenHash: 'x',
    externalIds: [],
    spaceSelection: { mode: 'all', spaces: [] },
    createdAt: 0,
    updatedAt: 0,
  };
}

const webhook = {
  name: WEBHOOK_INTEGRATION,
  manifest: { scopes: ['space:content:read', 'site:views:read'] },
};

describe('fanOutJobs and the event catalogue', () => {
  it.each(WEBHOOK_EVENT_TYPES)('a %s delivery body matches the published webhook JSON Schema', (type) => {
    const event = { ...sampleEvent(type), installationId: 'inst_caller' };
    const jobs = fanOutJobs(event, [{ installation: installation({ [type]: true }), integration: webhook }]);
    expect(jobs).toHaveLength(1);
    const body = JSON.parse((jobs[0]!.payload as unknown as DeliverJobPayload).body) as unknown;
    expect(WebhookPayloadSchema.safeParse(body).success).toBe(true);
    // The installation's own id replaces whatever the caller sent.
    expect(body).toMatchObject({ type, eventId: event.eventId, installationId: 'inst_1' });
  });

  it.each(PLATFORM_EVENT_TYPES)(
    '%s reaches an integration only with the scope the catalogue names',
    (type) => {
      const scope = EVENT_CATALOGUE[type].scope;
      const target = (scopes: string[]) => ({
        installation: { ...installation({}), integrationName: 'other' },
        integration: { name: 'other', manifest: { scopes } },
      });
      const event = sampleEvent(type);
      expect(fanOutJobs(event, [target([])])).toHaveLength(scope === null ? 1 : 0);
      const jobs = fanOutJobs(event, [target(scope === null ? [] : [scope])]);
      expect(jobs).toHaveLength(1);
      expect((jobs[0]!.payload as unknown as InvokeJobPayload).event).toMatchObject({
        type,
        installationId: 'inst_1',
      });
    },
  );
});
