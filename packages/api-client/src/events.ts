import type { InstallationConfiguration, InstallationStatus, InstallationTarget } from './environment';
import type { PageFeedbackPayload, SiteViewPayload, Visitor } from './webhook-payloads';

/** Fields every event carries. @example const b: BaseEvent = { type: 'space_view', eventId: 'evt_1' }; */
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
 * Fired when a user views a space.
 * @example events: { space_view: async (e) => console.log(e.pageId ?? 'root') }
 */
export interface SpaceViewEvent extends BaseEvent {
  type: 'space_view';
  /** Id of the viewed space. */
  spaceId: string;
  /** Id of the viewed page, when a page (not the space root) was opened. */
  pageId?: string;
  /** Who viewed it. */
  visitor: Visitor;
}

/**
 * Fired when content in a space changes.
 * @example events: { space_content_updated: async (e) => console.log(e.revisionId) }
 */
export interface SpaceContentUpdatedEvent extends BaseEvent {
  type: 'space_content_updated';
  /** Id of the changed space. */
  spaceId: string;
  /** Id of the new revision. */
  revisionId: string;
}

/**
 * Fired when a space's visibility changes.
 * @example events: { space_visibility_updated: async (e) => console.log(e.visibility) }
 */
export interface SpaceVisibilityUpdatedEvent extends BaseEvent {
  type: 'space_visibility_updated';
  /** Id of the space. */
  spaceId: string;
  /** The new visibility (platform value, e.g. `public`, `private`, `unlisted`). */
  visibility: string;
}

/**
 * Fired when a Git sync starts for a space.
 * @example events: { space_gitsync_started: async (e) => console.log(e.branch) }
 */
export interface SpaceGitSyncStartedEvent extends BaseEvent {
  type: 'space_gitsync_started';
  /** Id of the space being synced. */
  spaceId: string;
  /** Commit being synced, when known. */
  commitId?: string;
  /** Branch being synced, when known. */
  branch?: string;
}

/**
 * Fired when a Git sync completes for a space.
 * @example events: { space_gitsync_completed: async (e) => console.log(e.state) }
 */
export interface SpaceGitSyncCompletedEvent extends BaseEvent {
  type: 'space_gitsync_completed';
  /** Id of the synced space. */
  spaceId: string;
  /** Commit that was synced, when known. */
  commitId?: string;
  /** Branch that was synced, when known. */
  branch?: string;
  /** Outcome of the sync. */
  state: 'success' | 'failure';
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

/** `site_view` delivered as a runtime event (same fields as the webhook payload). @example events: { site_view: async (e) => console.log(e.url) } */
export type SiteViewEvent = SiteViewPayload;

/** `page_feedback` delivered as a runtime event (same fields as the webhook payload). @example events: { page_feedback: async (e) => console.log(e.feedback.rating) } */
export type PageFeedbackEvent = PageFeedbackPayload;

/**
 * Every event the host sends to an integration.
 * @example
 * function spaceOf(e: Event): string | undefined { return 'spaceId' in e ? e.spaceId : undefined; }
 */
export type Event =
  | InstallationSetupEvent
  | SpaceInstallationSetupEvent
  | SpaceViewEvent
  | SpaceContentUpdatedEvent
  | SpaceVisibilityUpdatedEvent
  | SpaceGitSyncStartedEvent
  | SpaceGitSyncCompletedEvent
  | SiteViewEvent
  | PageFeedbackEvent
  | UIRenderEvent
  | FetchEvent;

/** Name of an event type. @example const t: EventType = 'space_view'; */
export type EventType = Event['type'];

/** The event of a given type. @example type E = EventOf<'space_view'>; // SpaceViewEvent */
export type EventOf<T extends EventType> = Extract<Event, { type: T }>;

/**
 * Every event type, runtime events of SPEC 6.1 first.
 * @example EVENT_TYPES.includes('fetch'); // true
 */
export const EVENT_TYPES: readonly EventType[] = [
  'installation_setup',
  'space_installation_setup',
  'space_view',
  'ui_render',
  'space_content_updated',
  'space_visibility_updated',
  'space_gitsync_started',
  'space_gitsync_completed',
  'site_view',
  'page_feedback',
  'fetch',
];
