import { z } from 'zod';
import type { PlatformEventType, WebhookEventType } from './catalogue.js';

/**
 * The payload of every platform event, as zod schemas: the single source of its fields. The
 * request schema of `POST /v1/events`, the webhook payload schemas, the JSON Schema in
 * docs/schemas/ and the TypeScript types all derive from {@link EVENT_FIELDS}.
 */

const text = (description: string) => z.string().meta({ description });
const id = (description: string) => z.string().min(1).meta({ description });

/**
 * Who was visiting a site (carried by `site_view` and `page_feedback`, optional on `space_view`).
 * @example VisitorSchema.parse({ anonymousId: 'a', userAgent: 'ua', ip: '203.0.113.7', cookies: {} });
 */
export const VisitorSchema = z
  .object({
    anonymousId: text('stable anonymous id of the visitor (no personal data)'),
    userAgent: text("the visitor's User-Agent header"),
    ip: text("the visitor's IP address as the platform saw it"),
    cookies: z
      .record(z.string(), z.string())
      .meta({ description: 'cookies of the visitor on the site (may be empty)' }),
  })
  .meta({ description: 'who was visiting' });

/**
 * What a visitor said about a page.
 * @example PageFeedbackSchema.parse({ rating: 'good', comment: '' });
 */
export const PageFeedbackSchema = z
  .object({
    rating: text('the rating the visitor picked (the platform sends e.g. good, ok, bad)'),
    comment: text('free text written by the visitor: untrusted, escape before display'),
  })
  .meta({ description: 'what the visitor said' });

const pageVisit = {
  visitor: VisitorSchema,
  url: z.string().url().meta({ description: 'URL of the page' }),
  referrer: text('URL the visitor came from (empty string when unknown)'),
};
const gitSync = {
  spaceId: id('id of the synced space'),
  commitId: text('commit being synced, when known').optional(),
  branch: text('branch being synced, when known').optional(),
};

/**
 * The fields of each platform event besides `type`, `eventId` and `installationId`.
 * @example Object.keys(EVENT_FIELDS.space_content_updated); // ['spaceId', 'revisionId']
 */
export const EVENT_FIELDS = {
  space_view: {
    spaceId: id('id of the viewed space'),
    pageId: text('id of the viewed page; absent for the space root').optional(),
    visitor: VisitorSchema.optional(),
  },
  space_content_updated: {
    spaceId: id('id of the space whose content changed'),
    revisionId: id('id of the new revision of the space content'),
  },
  space_visibility_updated: {
    spaceId: id('id of the space'),
    visibility: text('the new visibility (e.g. public, private, unlisted)'),
  },
  space_gitsync_started: gitSync,
  space_gitsync_completed: {
    ...gitSync,
    state: z.enum(['success', 'failure']).meta({ description: 'outcome of the sync' }),
  },
  site_view: { siteId: id('id of the site that was viewed'), ...pageVisit },
  page_feedback: {
    siteId: id('id of the site the page belongs to'),
    spaceId: id('id of the space the page belongs to'),
    pageId: id('id of the page the feedback is about'),
    feedback: PageFeedbackSchema,
    ...pageVisit,
  },
} as const satisfies Record<PlatformEventType, z.ZodRawShape>;

type Fields = typeof EVENT_FIELDS;

/** The fields of one platform event. @example type F = EventFieldsOf<'site_view'>; // { siteId, visitor, url, referrer } */
export type EventFieldsOf<T extends PlatformEventType> = z.infer<z.ZodObject<Fields[T]>>;

/**
 * A platform event as an integration receives it.
 * @example const e: PlatformEventOf<'space_content_updated'> = { type: 'space_content_updated', eventId: 'e', spaceId: 's', revisionId: 'r' };
 */
export type PlatformEventOf<T extends PlatformEventType> = { type: T; eventId: string } & EventFieldsOf<T>;

/**
 * One webhook delivery body: the platform event plus the id of the installation it is delivered to.
 * @example type P = WebhookPayloadOf<'site_view'>;
 */
export type WebhookPayloadOf<T extends WebhookEventType> = PlatformEventOf<T> & { installationId: string };

/**
 * A realistic sample of each platform event's fields (docs, `platform trigger`, `platform listen`).
 * @example EVENT_SAMPLES.space_content_updated.revisionId; // 'rev_7Hq2Lw'
 */
export const EVENT_SAMPLES: { readonly [K in PlatformEventType]: EventFieldsOf<K> } = (() => {
  const visitor = {
    anonymousId: 'anon_7f3c2a',
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    ip: '203.0.113.42',
    cookies: { theme: 'dark' },
  };
  const page = 'https://docs.example.com/getting-started/install';
  const commit = { commitId: '9fceb02d0ae598e95dc970b74767f19372d61af8', branch: 'main' };
  return {
    space_view: { spaceId: 'space_dev', pageId: 'page_install', visitor },
    space_content_updated: { spaceId: 'space_dev', revisionId: 'rev_7Hq2Lw' },
    space_visibility_updated: { spaceId: 'space_dev', visibility: 'public' },
    space_gitsync_started: { spaceId: 'space_dev', ...commit },
    space_gitsync_completed: { spaceId: 'space_dev', ...commit, state: 'success' },
    site_view: { siteId: 'site_dev', visitor, url: page, referrer: 'https://www.google.com/' },
    page_feedback: {
      siteId: 'site_dev',
      spaceId: 'space_dev',
      pageId: 'page_install',
      feedback: { rating: 'good', comment: 'Clear steps, thanks!' },
      visitor: { ...visitor, cookies: {} },
      url: page,
      referrer: 'https://docs.example.com/',
    },
  };
})();

/** A space visit's visitor, a site visitor. @example const v: Visitor = EVENT_SAMPLES.site_view.visitor; */
export type Visitor = z.infer<typeof VisitorSchema>;
/** @example const f: PageFeedback = { rating: 'good', comment: '' }; */
export type PageFeedback = z.infer<typeof PageFeedbackSchema>;

/** @example events: { space_view: async (e) => console.log(e.pageId ?? 'root') } */
export type SpaceViewEvent = PlatformEventOf<'space_view'>;
/** @example events: { space_content_updated: async (e) => console.log(e.revisionId) } */
export type SpaceContentUpdatedEvent = PlatformEventOf<'space_content_updated'>;
/** @example events: { space_visibility_updated: async (e) => console.log(e.visibility) } */
export type SpaceVisibilityUpdatedEvent = PlatformEventOf<'space_visibility_updated'>;
/** @example events: { space_gitsync_started: async (e) => console.log(e.branch) } */
export type SpaceGitSyncStartedEvent = PlatformEventOf<'space_gitsync_started'>;
/** @example events: { space_gitsync_completed: async (e) => console.log(e.state) } */
export type SpaceGitSyncCompletedEvent = PlatformEventOf<'space_gitsync_completed'>;
/** The webhook body of a content change. @example const p: SpaceContentUpdatedPayload = { ...sample, installationId: 'inst_1' }; */
export type SpaceContentUpdatedPayload = WebhookPayloadOf<'space_content_updated'>;
/** The webhook body of a site view. @example function url(p: SiteViewPayload) { return p.url; } */
export type SiteViewPayload = WebhookPayloadOf<'site_view'>;
/** The webhook body of page feedback. @example function rating(p: PageFeedbackPayload) { return p.feedback.rating; } */
export type PageFeedbackPayload = WebhookPayloadOf<'page_feedback'>;

/**
 * Any webhook delivery body, discriminated by `type`.
 * @example function describe(p: WebhookPayload) { return p.type === 'site_view' ? p.url : p.eventId; }
 */
export type WebhookPayload = { [K in WebhookEventType]: WebhookPayloadOf<K> }[WebhookEventType];
