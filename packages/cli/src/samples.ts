/** Event types `POST /v1/events` accepts (the host's `IncomingEvent`). */
export const TRIGGER_EVENT_TYPES = [
  'space_content_updated',
  'space_view',
  'space_visibility_updated',
  'space_gitsync_started',
  'space_gitsync_completed',
  'site_view',
  'page_feedback',
] as const;

/** One of {@link TRIGGER_EVENT_TYPES}. */
export type TriggerEventType = (typeof TRIGGER_EVENT_TYPES)[number];

/** Whether an event type belongs to sites (else to spaces). */
export function isSiteEvent(type: TriggerEventType): boolean {
  return type === 'site_view' || type === 'page_feedback';
}

/** Where a sample happens. */
export interface SamplePlace {
  space?: string;
  site?: string;
}

const visitor = () => ({
  anonymousId: 'anon_7f3c2a',
  userAgent:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  ip: '203.0.113.42',
  cookies: { theme: 'dark' },
});

function randomId(prefix: string): string {
  return `${prefix}${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

/**
 * A realistic sample of an event as the documentation platform posts it to `POST /v1/events`
 * (like `stripe trigger`). A fresh `eventId` each time.
 *
 * @example
 * ```ts
 * sampleEvent('space_content_updated', { space: 'space_dev' }); // { type, eventId, spaceId: 'space_dev', revisionId }
 * ```
 */
export function sampleEvent(type: TriggerEventType, place: SamplePlace = {}): Record<string, unknown> {
  const spaceId = place.space ?? 'space_dev';
  const siteId = place.site ?? 'site_dev';
  const eventId = randomId('evt_');
  const page = 'https://docs.example.com/getting-started/install';
  switch (type) {
    case 'space_content_updated':
      return { type, eventId, spaceId, revisionId: randomId('rev_') };
    case 'space_view':
      return { type, eventId, spaceId, pageId: 'page_install', visitor: visitor() };
    case 'space_visibility_updated':
      return { type, eventId, spaceId, visibility: 'public' };
    case 'space_gitsync_started':
      return { type, eventId, spaceId, commitId: '9fceb02d0ae598e95dc970b74767f19372d61af8', branch: 'main' };
    case 'space_gitsync_completed':
      return {
        type,
        eventId,
        spaceId,
        commitId: '9fceb02d0ae598e95dc970b74767f19372d61af8',
        branch: 'main',
        state: 'success',
      };
    case 'site_view':
      return { type, eventId, siteId, visitor: visitor(), url: page, referrer: 'https://www.google.com/' };
    case 'page_feedback':
      return {
        type,
        eventId,
        siteId,
        spaceId,
        pageId: 'page_install',
        feedback: { rating: 'good', comment: 'Clear steps, thanks!' },
        visitor: { ...visitor(), cookies: {} },
        url: page,
        referrer: 'https://docs.example.com/',
      };
  }
}
