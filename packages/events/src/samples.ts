import type { PlatformEventType } from './catalogue.js';
import { EVENT_SAMPLES, type PlatformEventOf } from './payloads.js';

/** The space and site a sample happens in, and its event id (fresh when absent). */
export interface SamplePlace {
  space?: string;
  site?: string;
  eventId?: string;
}

/**
 * A realistic sample of a platform event, as the documentation platform posts it to
 * `POST /v1/events`: the catalogue's sample fields, in the given space and site.
 *
 * @example
 * sampleEvent(type, { space: 'space_main' }); // { type, eventId: 'evt_…', spaceId: 'space_main', ... }
 */
export function sampleEvent<T extends PlatformEventType>(
  type: T,
  place: SamplePlace = {},
): PlatformEventOf<T> {
  const fields: Record<string, unknown> = { ...EVENT_SAMPLES[type] };
  if (place.space !== undefined && 'spaceId' in fields) fields.spaceId = place.space;
  if (place.site !== undefined && 'siteId' in fields) fields.siteId = place.site;
  const eventId = place.eventId ?? `evt_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
  return { type, eventId, ...fields } as PlatformEventOf<T>;
}
