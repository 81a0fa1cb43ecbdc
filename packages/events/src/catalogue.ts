/**
 * The event catalogue's plain data: every event name, who emits it, where it belongs, the scope an
 * integration needs to receive it and whether a webhook installation can subscribe to it. Zod-free
 * on purpose: this module is bundled into integrations (workerd), so it stays a few hundred bytes.
 * The payload schemas of the same events are in `payloads.ts`, keyed by these names (the compiler
 * refuses a platform event without a schema and sample). Rules: docs/contracts.md "Events".
 */

/**
 * Where an event belongs: a space, a published site, an installation (its own lifecycle), a
 * component (rendering) or the installation's public endpoint.
 * @example const place: EventPlace = 'site';
 */
export type EventPlace = 'space' | 'site' | 'installation' | 'component' | 'endpoint';

/**
 * Who emits an event: `platform` events are posted by the documentation platform to
 * `POST /v1/events` (their payloads are in `payloads.ts`); `host` events are made by the host itself.
 * @example const source: EventSource = 'platform';
 */
export type EventSource = 'platform' | 'host';

/**
 * One entry of {@link EVENT_CATALOGUE}.
 * @example const entry: EventEntry = EVENT_CATALOGUE.site_view;
 */
export interface EventEntry {
  /** Short human title (the webhook settings show it next to the checkbox). */
  readonly title: string;
  /** One sentence: when the event fires. */
  readonly summary: string;
  readonly source: EventSource;
  readonly place: EventPlace;
  /** The scope an integration's manifest must request to receive the event; `null`: none needed. */
  readonly scope: string | null;
  /** Whether a webhook installation (of the event's place) can subscribe to it. */
  readonly webhook: boolean;
}

/**
 * Every event, in the order the docs list them. Adding an event: one entry here, its payload
 * fields and sample in `payloads.ts` (for a platform event), then `npm run gen:events`.
 *
 * @example
 * EVENT_CATALOGUE.page_feedback.scope; // 'site:views:read'
 */
export const EVENT_CATALOGUE = {
  installation_setup: {
    title: 'Installation set up',
    summary: 'The integration was installed, or the configuration of its installation was edited.',
    source: 'host',
    place: 'installation',
    scope: null,
    webhook: false,
  },
  space_installation_setup: {
    title: 'Space installation set up',
    summary: 'The integration was installed into a space.',
    source: 'host',
    place: 'space',
    scope: null,
    webhook: false,
  },
  site_installation_setup: {
    title: 'Site installation set up',
    summary:
      'The integration was installed into a site, or the configuration of its site installation was edited.',
    source: 'host',
    place: 'site',
    scope: null,
    webhook: false,
  },
  space_content_updated: {
    title: 'Space content updated',
    summary: 'Content in a space changed: a new revision exists.',
    source: 'platform',
    place: 'space',
    scope: 'space:content:read',
    webhook: true,
  },
  space_view: {
    title: 'Space view',
    summary: 'A user viewed a space (a page of it, or its root).',
    source: 'platform',
    place: 'space',
    scope: 'space:content:read',
    webhook: false,
  },
  space_visibility_updated: {
    title: 'Space visibility updated',
    summary: "A space's visibility changed.",
    source: 'platform',
    place: 'space',
    scope: 'space:metadata:read',
    webhook: false,
  },
  space_gitsync_started: {
    title: 'Git sync started',
    summary: 'A Git sync of a space started.',
    source: 'platform',
    place: 'space',
    scope: 'space:git:sync',
    webhook: false,
  },
  space_gitsync_completed: {
    title: 'Git sync completed',
    summary: 'A Git sync of a space ended, successfully or not.',
    source: 'platform',
    place: 'space',
    scope: 'space:git:sync',
    webhook: false,
  },
  site_view: {
    title: 'Site view',
    summary: 'A visitor opened a page of a published site.',
    source: 'platform',
    place: 'site',
    scope: 'site:views:read',
    webhook: true,
  },
  page_feedback: {
    title: 'Page feedback',
    summary: 'A visitor rated a page of a published site.',
    source: 'platform',
    place: 'site',
    scope: 'site:views:read',
    webhook: true,
  },
  integration_task: {
    title: 'Integration task',
    summary:
      'A task the integration queued for itself (`context.integration.queueTask`) is due: it comes back with its type and payload, after its delay.',
    source: 'host',
    place: 'installation',
    scope: null,
    webhook: false,
  },
  ui_render: {
    title: 'Component render',
    summary:
      'The platform asks the integration to render one of its components, possibly after a user action.',
    source: 'host',
    place: 'component',
    scope: null,
    webhook: false,
  },
  fetch_published_script: {
    title: 'Published-page script',
    summary:
      'A published site asks the installation for the script its pages include (analytics, chat, consent banners); the integration answers JavaScript, or nothing.',
    source: 'host',
    place: 'site',
    scope: 'site:script:inject',
    webhook: false,
  },
  fetch_visitor_authentication: {
    title: 'Visitor authentication',
    summary:
      "A visitor of a protected site has no session: the host asks the installation where to send them to sign in (an identity provider's URL), or, on logout, where to send them after their session ends.",
    source: 'host',
    place: 'site',
    scope: 'site:visitor:auth',
    webhook: false,
  },
  content_compute_revision: {
    title: 'Content source: pages',
    summary:
      "The host asks one of the installation's content sources for the pages it generates from its external source (titles, and the props each page's document is computed from).",
    source: 'host',
    place: 'space',
    scope: 'space:content:write',
    webhook: false,
  },
  content_compute_document: {
    title: 'Content source: page document',
    summary: "The host asks one of the installation's content sources for the document of one of its pages.",
    source: 'host',
    place: 'space',
    scope: 'space:content:write',
    webhook: false,
  },
  fetch: {
    title: 'Public endpoint request',
    summary: "An HTTP request reached the installation's public endpoint; the body travels unmodified.",
    source: 'host',
    place: 'endpoint',
    scope: null,
    webhook: false,
  },
} as const satisfies Record<string, EventEntry>;

type Catalogue = typeof EVENT_CATALOGUE;

/** Name of an event. @example const t: EventType = 'space_view'; */
export type EventType = keyof Catalogue;

/**
 * The names of the events the host makes itself (installation set-up, component rendering, published
 * site scripts, public endpoint requests): code that emits or recognises them uses these instead of spelling the name.
 *
 * @example
 * if (event.type === HOST_EVENT.uiRender) renderComponent(event);
 */
export const HOST_EVENT = {
  installationSetup: 'installation_setup',
  spaceInstallationSetup: 'space_installation_setup',
  siteInstallationSetup: 'site_installation_setup',
  integrationTask: 'integration_task',
  uiRender: 'ui_render',
  fetchPublishedScript: 'fetch_published_script',
  fetchVisitorAuthentication: 'fetch_visitor_authentication',
  contentComputeRevision: 'content_compute_revision',
  contentComputeDocument: 'content_compute_document',
  fetch: 'fetch',
} as const satisfies Record<string, EventType>;

/** An event the documentation platform posts to `POST /v1/events`. @example const t: PlatformEventType = 'site_view'; */
export type PlatformEventType = {
  [K in EventType]: Catalogue[K]['source'] extends 'platform' ? K : never;
}[EventType];

/** An event a webhook installation can subscribe to. @example const t: WebhookEventType = 'page_feedback'; */
export type WebhookEventType = {
  [K in EventType]: Catalogue[K]['webhook'] extends true ? K : never;
}[EventType];

/** A place a webhook installation lives in. @example const p: WebhookPlace = 'site'; */
export type WebhookPlace = Catalogue[WebhookEventType]['place'];

/** The webhook events of one place. @example const t: WebhookEventTypeOf<'space'> = 'space_content_updated'; */
export type WebhookEventTypeOf<P extends WebhookPlace> = {
  [K in WebhookEventType]: Catalogue[K]['place'] extends P ? K : never;
}[WebhookEventType];

/** The scope each event needs. @example const s: EventScopes['site_view'] = 'site:views:read'; */
export type EventScopes = { readonly [K in EventType]: Catalogue[K]['scope'] };

function typesWhere(keep: (entry: EventEntry) => boolean): EventType[] {
  return (Object.keys(EVENT_CATALOGUE) as EventType[]).filter((type) => keep(EVENT_CATALOGUE[type]));
}

/**
 * Every event name, in catalogue order.
 * @example EVENT_TYPES.includes('fetch'); // true
 */
export const EVENT_TYPES: readonly EventType[] = typesWhere(() => true);

/**
 * The events `POST /v1/events` accepts (what `platform trigger` can send).
 * @example PLATFORM_EVENT_TYPES.includes('installation_setup'); // false
 */
export const PLATFORM_EVENT_TYPES = typesWhere(
  (e) => e.source === 'platform',
) as readonly PlatformEventType[];

/**
 * The events a webhook installation can subscribe to.
 * @example WEBHOOK_EVENT_TYPES.includes('site_view'); // true
 */
export const WEBHOOK_EVENT_TYPES = typesWhere((e) => e.webhook) as readonly WebhookEventType[];

/**
 * The webhook events by the place of the installation: each is a boolean configuration key of the
 * same name in the webhook integration's settings.
 * @example WEBHOOK_EVENT_TYPES_BY_PLACE.site; // ['site_view', 'page_feedback']
 */
export const WEBHOOK_EVENT_TYPES_BY_PLACE: {
  readonly [P in WebhookPlace]: readonly WebhookEventTypeOf<P>[];
} = {
  space: typesWhere((e) => e.webhook && e.place === 'space') as WebhookEventTypeOf<'space'>[],
  site: typesWhere((e) => e.webhook && e.place === 'site') as WebhookEventTypeOf<'site'>[],
};

/**
 * The scope an integration needs to receive each event (`null`: none).
 * @example EVENT_SCOPES.space_visibility_updated; // 'space:metadata:read'
 */
export const EVENT_SCOPES = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, EVENT_CATALOGUE[type].scope]),
) as EventScopes;

/**
 * Whether a string names an event of the catalogue.
 * @example isEventType('site_view'); // true
 */
export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && Object.hasOwn(EVENT_CATALOGUE, value);
}
