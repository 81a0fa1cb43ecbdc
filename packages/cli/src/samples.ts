import {
  sampleEvent as catalogueSample,
  EVENT_CATALOGUE,
  PLATFORM_EVENT_TYPES,
  type PlatformEventType,
  type SamplePlace,
} from '@platform/events';

export type { SamplePlace } from '@platform/events';

/** Event types `POST /v1/events` accepts: the platform events of the catalogue (docs/events.md). */
export const TRIGGER_EVENT_TYPES = PLATFORM_EVENT_TYPES;

/** One of {@link TRIGGER_EVENT_TYPES}. */
export type TriggerEventType = PlatformEventType;

/**
 * Whether an event type belongs to sites (else to spaces).
 * @example isSiteEvent(type) ? sample.siteId : sample.spaceId;
 */
export function isSiteEvent(type: TriggerEventType): boolean {
  return EVENT_CATALOGUE[type].place === 'site';
}

/**
 * A realistic sample of an event as the documentation platform posts it to `POST /v1/events`
 * (like `stripe trigger`): the catalogue's sample, a fresh `eventId` each time.
 *
 * @example
 * ```ts
 * sampleEvent(type, { space: 'space_dev' }); // { type, eventId, spaceId: 'space_dev', ... }
 * ```
 */
export function sampleEvent(type: TriggerEventType, place: SamplePlace = {}): Record<string, unknown> {
  return catalogueSample(type, place);
}
