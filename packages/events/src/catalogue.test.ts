import { describe, expect, it } from 'vitest';
import {
  EVENT_CATALOGUE,
  EVENT_SCOPES,
  EVENT_TYPES,
  isEventType,
  PLATFORM_EVENT_TYPES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENT_TYPES_BY_PLACE,
} from './catalogue.js';
import { EVENT_FIELDS, EVENT_SAMPLES } from './payloads.js';
import { sampleEvent } from './samples.js';
import { IncomingEventSchema, WebhookPayloadSchema } from './schemas.js';

describe('event catalogue', () => {
  it('derives the lists from the entries', () => {
    expect(EVENT_TYPES).toHaveLength(Object.keys(EVENT_CATALOGUE).length);
    expect(PLATFORM_EVENT_TYPES.every((t) => EVENT_CATALOGUE[t].source === 'platform')).toBe(true);
    expect(new Set(WEBHOOK_EVENT_TYPES)).toEqual(
      new Set([...WEBHOOK_EVENT_TYPES_BY_PLACE.space, ...WEBHOOK_EVENT_TYPES_BY_PLACE.site]),
    );
    expect(WEBHOOK_EVENT_TYPES_BY_PLACE.site.every((t) => EVENT_CATALOGUE[t].place === 'site')).toBe(true);
    expect(EVENT_SCOPES.page_feedback).toBe('site:views:read');
    expect(EVENT_SCOPES.ui_render).toBeNull();
    expect(EVENT_CATALOGUE.site_installation_setup).toMatchObject({
      source: 'host',
      place: 'site',
      scope: null,
    });
    expect(PLATFORM_EVENT_TYPES).not.toContain('site_installation_setup');
    expect(WEBHOOK_EVENT_TYPES).not.toContain('site_installation_setup');
    expect(isEventType('site_view')).toBe(true);
    expect(isEventType('toString')).toBe(false);
  });

  it('has payload fields and a sample for every platform event, and for no other', () => {
    expect(Object.keys(EVENT_FIELDS).sort()).toEqual([...PLATFORM_EVENT_TYPES].sort());
    expect(Object.keys(EVENT_SAMPLES).sort()).toEqual([...PLATFORM_EVENT_TYPES].sort());
  });

  it.each(PLATFORM_EVENT_TYPES)('the %s sample is accepted by POST /v1/events', (type) => {
    const parsed = IncomingEventSchema.safeParse(sampleEvent(type, { space: 'space_x', site: 'site_y' }));
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });

  it('refuses unknown keys and unknown types on POST /v1/events', () => {
    const sample = sampleEvent('space_content_updated');
    expect(IncomingEventSchema.safeParse({ ...sample, spaceID: 's' }).success).toBe(false);
    expect(IncomingEventSchema.safeParse({ ...sample, type: 'ui_render' }).success).toBe(false);
    expect(IncomingEventSchema.safeParse({ ...sample, revisionId: '' }).success).toBe(false);
  });

  it.each(WEBHOOK_EVENT_TYPES)(
    'a %s delivery body (sample + installationId) matches the webhook schema',
    (type) => {
      const body = { ...sampleEvent(type), installationId: 'inst_1' };
      expect(WebhookPayloadSchema.safeParse(body).success).toBe(true);
      expect(WebhookPayloadSchema.safeParse({ ...body, installationId: undefined }).success).toBe(false);
    },
  );

  it('places a sample in the given space and site, with a fresh event id', () => {
    const a = sampleEvent('page_feedback', { space: 'space_x', site: 'site_y' });
    expect(a).toMatchObject({ type: 'page_feedback', spaceId: 'space_x', siteId: 'site_y' });
    expect(a.eventId).not.toBe(sampleEvent('page_feedback').eventId);
    expect(sampleEvent('site_view', { space: 'space_x' })).not.toHaveProperty('spaceId');
  });
});
