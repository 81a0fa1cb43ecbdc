import type {
  PageFeedbackPayload,
  SiteViewPayload,
  SpaceContentUpdatedEvent,
  SpaceGitSyncCompletedEvent,
  SpaceGitSyncStartedEvent,
  SpaceViewEvent,
  SpaceVisibilityUpdatedEvent,
} from '@platform/events';
import type { InstallationConfiguration, InstallationStatus, InstallationTarget } from './environment';

// The events of the platform (space views, content changes, site views, ...) derive from the event
// catalogue `@platform/events` (docs/events.md, re-exported by index.ts); the events the host makes
// itself (setup, render, fetch) are written here.

/** A site visit delivered as a runtime event (same fields as its webhook payload). @example const url = (e: SiteViewEvent) => e.url; */
export type SiteViewEvent = SiteViewPayload;

/** Page feedback delivered as a runtime event (same fields as its webhook payload). @example const rating = (e: PageFeedbackEvent) => e.feedback.rating; */
export type PageFeedbackEvent = PageFeedbackPayload;

/** Fields every event carries. @example const b: BaseEvent = { type: 'fetch', eventId: 'evt_1' }; */
export interface BaseEvent {
  /** The event name; handlers are looked up by it. */
  type: string;
  /** Unique id of the event; the same event redelivered keeps its id. */
  eventId: string;
}

/**
 * Fired when the integration is installed, and again on every configuration edit.
 * @example events: { installation_setup: async (e) => console.log(e.status) }
 */
export interface InstallationSetupEvent extends BaseEvent {
  type: 'installation_setup';
  /** Id of the installation that was set up or edited. */
  installationId: string;
  /** Status after the edit (`active` once the configuration validates). */
  status: InstallationStatus;
  /** Where the installation lives. */
  target: InstallationTarget;
  /** The configuration after the edit. */
  configuration: InstallationConfiguration;
}

/**
 * Fired when the integration is installed into a specific space.
 * @example events: { space_installation_setup: async (e) => console.log(e.spaceId) }
 */
export interface SpaceInstallationSetupEvent extends BaseEvent {
  type: 'space_installation_setup';
  /** Id of the (organization-level) installation. */
  installationId: string;
  /** Id of the space the integration was installed into. */
  spaceId: string;
  /** Configuration of the space installation. */
  configuration: InstallationConfiguration;
}

/**
 * Fired when the integration is installed into a site, and again on every edit of the site
 * installation's configuration (docs/contracts.md "Events"). The site installation itself is also in
 * `context.environment.siteInstallation`.
 * @example events: { site_installation_setup: async (e) => console.log(e.siteId, e.status) }
 */
export interface SiteInstallationSetupEvent extends BaseEvent {
  type: 'site_installation_setup';
  /** Id of the site installation that was set up or edited. */
  installationId: string;
  /** Id of the site the integration was installed into. */
  siteId: string;
  /** Status after the edit (`active` once the configuration validates, `pending` before). */
  status: InstallationStatus;
  /** Configuration of the site installation after the edit. */
  configuration: InstallationConfiguration;
}

/**
 * A task an integration queues for itself: a `type` its task handler switches on, and a JSON `payload`.
 * @example const t: IntegrationTask = { type: 'import:spaces', payload: { page: 2 } };
 */
export interface IntegrationTask<Type extends string = string, Payload = unknown> {
  /** What to do; the task handler switches on it. */
  type: Type;
  /** The task's data, stored as JSON (at most 64 KiB serialized, docs/tasks.md). */
  payload: Payload;
}

/**
 * A queued task that fell due (docs/tasks.md): the integration's `task` handler (or
 * `events.integration_task`) receives it. `eventId` is the task's id, the same on every attempt.
 * @example events: { integration_task: async (e) => console.log(e.task.type, e.taskId) }
 */
export interface IntegrationTaskEvent extends BaseEvent {
  type: 'integration_task';
  /** Id of the installation that queued the task. */
  installationId: string;
  /** The task's id (the same as `eventId`; what `queueTask` answered). */
  taskId: string;
  /** The task as queued. */
  task: IntegrationTask;
}

/**
 * A user action dispatched to a component: `action` names it, other keys are the
 * payload given in the element's `onPress`.
 * @example const a: ComponentAction = { action: 'increment', by: 2 };
 */
export interface ComponentAction {
  /** The action name, matched by the component's `action` handler. */
  action: string;
  [key: string]: unknown;
}

/**
 * Asks the integration to render one of its components, optionally after an action.
 * @example const e: UIRenderEvent = { type: 'ui_render', eventId: 'e', componentId: 'counter', props: {} };
 */
export interface UIRenderEvent extends BaseEvent {
  type: 'ui_render';
  /** Which component (`createComponent({ componentId })`). */
  componentId: string;
  /** Props of the component instance (e.g. set when inserted). */
  props: Record<string, unknown>;
  /** Current state; absent on first render (the runtime uses `initialState(props)`). */
  state?: Record<string, unknown>;
  /** The user action to apply before rendering, if any. */
  action?: ComponentAction;
  /** Where the component is shown (platform-defined, passed through as-is). */
  context?: Record<string, unknown>;
}

/**
 * The HTTP request that reached the installation's public endpoint.
 * @example const r: FetchEventRequest = { method: 'POST', url: 'https://host/p/webhook', headers: {} };
 */
export interface FetchEventRequest {
  /** HTTP method, upper case. */
  method: string;
  /** Full public URL that was requested, including the query string. */
  url: string;
  /** Request headers, lower-case names to values. */
  headers: Record<string, string>;
}

/**
 * An HTTP request to the public endpoint; the body travels unmodified in the `fetch-body` part.
 * @example const e: FetchEvent = { type: 'fetch', eventId: 'e', request: { method: 'GET', url: 'https://h/p', headers: {} } };
 */
export interface FetchEvent extends BaseEvent {
  type: 'fetch';
  /** The request line and headers. */
  request: FetchEventRequest;
}

/**
 * A published site asks for the script its pages include (docs/published-scripts.md): the
 * integration's `fetch_published_script` answers a JavaScript `Response`, or nothing. The
 * installation's configuration is in `context.environment` (`siteInstallation.configuration`).
 * @example const e: FetchPublishedScriptEvent = { type: 'fetch_published_script', eventId: 'e', installationId: 'inst_1', siteId: 'site_1' };
 */
export interface FetchPublishedScriptEvent extends BaseEvent {
  type: 'fetch_published_script';
  /** Id of the installation whose script is asked for. */
  installationId: string;
  /** Id of the published site whose pages include the script. */
  siteId: string;
  /** Id of the space the site publishes, when the site renderer says it. */
  spaceId?: string;
}

/**
 * A visitor of a protected site (docs/visitor-authentication.md) has no session, or asks to log out:
 * the integration's `fetch_visitor_authentication` answers a redirect (`Response.redirect(url)`) to
 * its identity provider's sign-in page, or, for `action: 'logout'`, to where the visitor goes next.
 * @example const e: FetchVisitorAuthenticationEvent = { type: 'fetch_visitor_authentication', eventId: 'e', installationId: 'inst_1', siteId: 'site_1', location: '/guide?tab=2' };
 */
export interface FetchVisitorAuthenticationEvent extends BaseEvent {
  type: 'fetch_visitor_authentication';
  /** Id of the site installation asked (the site's authentication backend). */
  installationId: string;
  /** Id of the protected site. */
  siteId: string;
  /**
   * Where the visitor was going, as a path of the site with its query (`/guide?tab=2`; `/` for the
   * site's root): send them back there once signed in (`siteInstallation.urls.published` + location).
   */
  location: string;
  /** `logout`: the visitor's session was ended; answer where to send them (or nothing: the site's root). */
  action?: 'logout';
}

/** What the host sends a content source (docs/content-sources.md) with each of its two questions. */
interface ContentComputeEventFields extends BaseEvent {
  /** Id of the installation whose source is asked. */
  installationId: string;
  /** Id of the space the content is for. */
  spaceId: string;
  /** Id of the content source (`contentSources[].id` of the manifest). */
  sourceId: string;
  /**
   * The props of the question: the ones the space's content was set up with (revision), or the
   * page's `computed.props` (document).
   */
  props: Record<string, unknown>;
  /** Resolved dependencies (none yet: always `{}`). */
  dependencies: Record<string, unknown>;
}

/**
 * The host asks a content source (docs/content-sources.md) for its pages: `createContentSource`'s
 * `getRevision` answers `{ pages }`. `props` are the ones the space's content was set up with.
 * @example const e: ContentComputeRevisionEvent = { type: 'content_compute_revision', eventId: 'e', installationId: 'inst_1', spaceId: 'spc_1', sourceId: 'releases', props: {}, dependencies: {} };
 */
export interface ContentComputeRevisionEvent extends ContentComputeEventFields {
  type: 'content_compute_revision';
}

/**
 * The host asks a content source for the document of one of its pages, with the props the page named
 * (`computed.props`); `getPageDocument` answers it.
 * @example const e: ContentComputeDocumentEvent = { type: 'content_compute_document', eventId: 'e', installationId: 'inst_1', spaceId: 'spc_1', sourceId: 'releases', props: { tag: 'v1' }, dependencies: {} };
 */
export interface ContentComputeDocumentEvent extends ContentComputeEventFields {
  type: 'content_compute_document';
}

/**
 * Every event the host sends to an integration.
 * @example
 * function spaceOf(e: Event): string | undefined { return 'spaceId' in e ? e.spaceId : undefined; }
 */
export type Event =
  | InstallationSetupEvent
  | SpaceInstallationSetupEvent
  | SiteInstallationSetupEvent
  | IntegrationTaskEvent
  | SpaceViewEvent
  | SpaceContentUpdatedEvent
  | SpaceVisibilityUpdatedEvent
  | SpaceGitSyncStartedEvent
  | SpaceGitSyncCompletedEvent
  | SiteViewEvent
  | PageFeedbackEvent
  | UIRenderEvent
  | FetchPublishedScriptEvent
  | FetchVisitorAuthenticationEvent
  | ContentComputeRevisionEvent
  | ContentComputeDocumentEvent
  | FetchEvent;

/** Name of an event type. @example const t: EventType = 'fetch'; */
export type EventType = Event['type'];

/** The event of a given type. @example type E = EventOf<'fetch'>; // FetchEvent */
export type EventOf<T extends EventType> = Extract<Event, { type: T }>;
