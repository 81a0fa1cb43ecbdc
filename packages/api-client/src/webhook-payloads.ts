/**
 * Who was visiting a site when a `site_view` or `page_feedback` happened (SPEC 2.10).
 *
 * @example
 * const v: Visitor = { anonymousId: 'anon_1', userAgent: 'Mozilla/5.0', ip: '203.0.113.7', cookies: {} };
 */
export interface Visitor {
  /** Stable anonymous id of the visitor (no personal data). */
  anonymousId: string;
  /** The `User-Agent` header of the visitor's browser. */
  userAgent: string;
  /** The visitor's IP address, as seen by the platform. */
  ip: string;
  /** Cookies of the visitor on the site, name to value (may be empty). */
  cookies: Record<string, string>;
}

/**
 * Webhook payload fired when content in a space is modified (SPEC 2.10).
 *
 * @example
 * const p: SpaceContentUpdatedPayload = {
 *   eventId: 'evt_1', type: 'space_content_updated', spaceId: 'spc_1', installationId: 'inst_1', revisionId: 'rev_9',
 * };
 */
export interface SpaceContentUpdatedPayload {
  /** Unique id of the event; repeated on retries, so receivers deduplicate on it. */
  eventId: string;
  /** Always `space_content_updated`. */
  type: 'space_content_updated';
  /** Id of the space whose content changed. */
  spaceId: string;
  /** Id of the installation this delivery belongs to. */
  installationId: string;
  /** Id of the new revision of the space content. */
  revisionId: string;
}

/**
 * Webhook payload fired when a visitor opens a page of a site (SPEC 2.10).
 *
 * @example
 * const p: SiteViewPayload = {
 *   eventId: 'evt_2', type: 'site_view', siteId: 'site_1', installationId: 'inst_1',
 *   visitor: { anonymousId: 'a', userAgent: 'ua', ip: '203.0.113.7', cookies: {} },
 *   url: 'https://docs.example.com/page', referrer: 'https://example.com/',
 * };
 */
export interface SiteViewPayload {
  /** Unique id of the event; repeated on retries. */
  eventId: string;
  /** Always `site_view`. */
  type: 'site_view';
  /** Id of the site that was viewed. */
  siteId: string;
  /** Id of the installation this delivery belongs to. */
  installationId: string;
  /** The visitor who opened the page. */
  visitor: Visitor;
  /** URL of the viewed page. */
  url: string;
  /** URL the visitor came from (empty string when unknown). */
  referrer: string;
}

/**
 * The feedback a visitor gave on a page. SPEC leaves the allowed ratings open,
 * so `rating` is any string (the platform sends e.g. `good`, `ok`, `bad`).
 *
 * @example
 * const f: PageFeedback = { rating: 'good', comment: 'Clear, thanks!' };
 */
export interface PageFeedback {
  /** The rating the visitor picked. */
  rating: string;
  /** Free text written by the visitor (untrusted input: escape before display). */
  comment: string;
}

/**
 * Webhook payload fired when a visitor gives feedback on a page (SPEC 2.10).
 *
 * @example
 * const p: PageFeedbackPayload = {
 *   eventId: 'evt_3', type: 'page_feedback', siteId: 'site_1', spaceId: 'spc_1', installationId: 'inst_1',
 *   pageId: 'page_1', feedback: { rating: 'good', comment: '' },
 *   visitor: { anonymousId: 'a', userAgent: 'ua', ip: '203.0.113.7', cookies: {} },
 *   url: 'https://docs.example.com/page', referrer: '',
 * };
 */
export interface PageFeedbackPayload {
  /** Unique id of the event; repeated on retries. */
  eventId: string;
  /** Always `page_feedback`. */
  type: 'page_feedback';
  /** Id of the site the page belongs to. */
  siteId: string;
  /** Id of the space the page belongs to. */
  spaceId: string;
  /** Id of the installation this delivery belongs to. */
  installationId: string;
  /** Id of the page the feedback is about. */
  pageId: string;
  /** What the visitor said. */
  feedback: PageFeedback;
  /** The visitor (same shape as in `site_view`; `cookies` may be empty). */
  visitor: Visitor;
  /** URL of the page. */
  url: string;
  /** URL the visitor came from (empty string when unknown). */
  referrer: string;
}

/**
 * One webhook delivery body: exactly one of the SPEC 2.10 payloads, no wrapper.
 *
 * @example
 * function describe(p: WebhookPayload): string {
 *   return p.type === 'site_view' ? p.url : p.eventId;
 * }
 */
export type WebhookPayload = SpaceContentUpdatedPayload | SiteViewPayload | PageFeedbackPayload;

/**
 * The event types a webhook installation can subscribe to (SPEC 6.2).
 *
 * @example
 * WEBHOOK_EVENT_TYPES.includes('site_view'); // true
 */
export const WEBHOOK_EVENT_TYPES = ['space_content_updated', 'site_view', 'page_feedback'] as const;

/** A webhook event type. @example const t: WebhookEventType = 'page_feedback'; */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
