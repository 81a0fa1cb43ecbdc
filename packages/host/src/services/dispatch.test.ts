import {
  EVENT_CATALOGUE,
  PLATFORM_EVENT_TYPES,
  sampleEvent,
  WEBHOOK_EVENT_TYPES,
  WebhookPayloadSchema,
} from '@platform/events';
import { describe, expect, it } from 'vitest';
import { openSetupEvent } from '../invocation/payload.js';
import { createSecretBox, generateKey } from '../secrets/index.js';
import type { InstallationRecord } from '../storage/index.js';
import { WEBHOOK_INTEGRATION } from './context.js';
import {
  type DeliverJobPayload,
  fanOutJobs,
  hasScopeFor,
  type InvokeJobPayload,
  installationSetupJobs,
  placeSetupEvents,
} from './dispatch.js';

function installation(configuration: Record<string, unknown>): InstallationRecord {
  return {
    id: 'inst_1',
    integrationName: WEBHOOK_INTEGRATION,
    target: 'site',
    spaceId: 'space_dev',
    siteId: 'site_dev',
    organizationId: null,
    ownerOrganization: null,
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

const box = createSecretBox({ current: generateKey() });
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

describe('set-up events', () => {
  it('tells a site installation of its install and of every configuration edit, a space one of its install', () => {
    expect(placeSetupEvents('site', 'install')).toEqual(['site_installation_setup']);
    expect(placeSetupEvents('site', 'configure')).toEqual(['site_installation_setup']);
    expect(placeSetupEvents('space', 'install')).toEqual(['space_installation_setup']);
    expect(placeSetupEvents('space', 'configure')).toEqual([]);
    expect(placeSetupEvents('organization', 'install')).toEqual([]);
  });

  it('gives site_installation_setup the site, status and configuration, and needs no scope', () => {
    const site = { ...installation({ flag: 'beta' }), status: 'pending' as const };
    const [setup, siteSetup] = installationSetupJobs(
      site,
      ['installation_setup', 'site_installation_setup'],
      box,
    );
    const event = (siteSetup!.payload as unknown as InvokeJobPayload).event;
    expect(event).toEqual({
      type: 'site_installation_setup',
      eventId: expect.stringMatching(/^evt_/),
      installationId: 'inst_1',
      siteId: 'site_dev',
      status: 'pending',
      configuration: { flag: 'beta' },
    });
    expect(event.eventId).not.toBe((setup!.payload as unknown as InvokeJobPayload).event.eventId);
    expect(hasScopeFor({ manifest: { scopes: [] } }, 'site_installation_setup')).toBe(true);
  });

  it("seals the configuration's secrets in the queued set-up event; the worker's openSetupEvent gives them back", () => {
    const credentials = { access_token: 'tok_in_queue', refresh_token: 'rt_in_queue' };
    const [setup] = installationSetupJobs(
      installation({ channel: 'c', oauth_credentials: credentials }),
      ['installation_setup'],
      box,
    );
    const queued = (setup!.payload as unknown as InvokeJobPayload).event;
    expect(JSON.stringify(setup!.payload)).not.toContain('tok_in_queue');
    expect((queued.configuration as Record<string, unknown>).channel).toBe('c');
    expect(openSetupEvent(box, queued).configuration).toEqual({
      channel: 'c',
      oauth_credentials: credentials,
    });
    const other = { type: 'space_content_updated', eventId: 'evt_1' };
    expect(openSetupEvent(box, other)).toBe(other);
  });
});
