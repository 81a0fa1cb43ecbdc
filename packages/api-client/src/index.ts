/**
 * The platform's events and the webhook delivery bodies derive from the event catalogue
 * (`@platform/events`, docs/events.md): types only, plus the zod-free `catalogue` lists, so nothing of
 * the catalogue's zod reaches workerd bundles.
 */
export type {
  PageFeedback,
  PageFeedbackPayload,
  SiteViewPayload,
  SpaceContentUpdatedEvent,
  SpaceContentUpdatedPayload,
  SpaceGitSyncCompletedEvent,
  SpaceGitSyncStartedEvent,
  SpaceViewEvent,
  SpaceVisibilityUpdatedEvent,
  Visitor,
  WebhookEventType,
  WebhookPayload,
} from '@platform/events';
export { EVENT_TYPES, HOST_EVENT, WEBHOOK_EVENT_TYPES } from '@platform/events/catalogue';
export type {
  ChangedRevisionFile,
  ChangedRevisionPage,
  IntegrationEnvironmentSiteInstallation,
  RequestUpdateIntegrationInstallation,
  RevisionPageDocument,
  RevisionPageGroup,
  RevisionPageLink,
  RevisionSemanticChange,
  SearchAIAnswer,
  SearchAIAnswerSource,
  SiteAdaptiveJSONSchema,
  SiteAdaptiveJSONSchemaClaimsProperties,
} from './api-types';
export { ContentVisibility, GitSyncOperationState, RevisionSemanticChangeType } from './api-types';
export type { ApiClient, ApiClientOptions, QueuedTask, QueueTaskRequest } from './client';
export { createApiClient } from './client';
export type * from './contentkit';
export { CONTENTKIT_JSX, ContentKitIcon, type ContentKitJsxName } from './contentkit';
export type {
  ContentSourceDocument,
  ContentSourcePage,
  ContentSourceRevision,
} from './document/content-source';
export { type MarkdownBlockSpec, markdownToNodes, nodesToMarkdown } from './document/markdown';
export type { DocumentBlockNode, DocumentNode, DocumentTextNode, SpaceDocument } from './document/schema';
export type {
  ApiTokens,
  EnvironmentUrls,
  Installation,
  InstallationConfiguration,
  InstallationStatus,
  InstallationTarget,
  InstallationUrls,
  IntegrationEnvironment,
  IntegrationInfo,
  OrganizationInstallation,
  SigningSecrets,
  SiteInstallation,
  SpaceInstallation,
  SpaceSelection,
} from './environment';
export { environmentUrls } from './environment';
// Compatibility names (README "Compatibility names"): what code written for a class client imports.
export { ApiError, ApiError as GitBookAPIError, apiErrorFromResponse } from './errors';
export type {
  BaseEvent,
  ComponentAction,
  ContentComputeDocumentEvent,
  ContentComputeRevisionEvent,
  Event,
  EventOf,
  EventType,
  FetchEvent,
  FetchEventRequest,
  FetchPublishedScriptEvent,
  FetchVisitorAuthenticationEvent,
  InstallationSetupEvent,
  IntegrationTask,
  IntegrationTaskEvent,
  PageFeedbackEvent,
  SiteInstallationSetupEvent,
  SiteViewEvent,
  SpaceInstallationSetupEvent,
  UIRenderEvent,
} from './events';
export {
  describeEnvironmentProblem,
  describeEventProblem,
  isFetchEventRequest,
  isRecord,
  isUIRenderEvent,
} from './guards';
export type { CallInput, HostCall, RouteRequest, RouteTypes, SendRequest } from './host-api';
export { createHostApi, routeRequest } from './host-api';
export type { QueueFigures } from './host-status';
export { describeQueue, formatLag, heldNote, slowEndpointPlace } from './host-status';
export type {
  IntegrationInstallation,
  IntegrationInstallationConfiguration,
  IntegrationSiteInstallation,
  IntegrationSpaceInstallation,
} from './installation-aliases';
export type { PlatformAPIOptions } from './platform-api';
export { PlatformAPI, PlatformAPI as GitBookAPI } from './platform-api';
export type {
  ApiList,
  ApiResponse,
  InstallationListQuery,
  InstallationUpdate,
  IntegrationsGroup,
  NotServed,
  OrgsGroup,
  PlatformGroups,
  Revision,
  RevisionPage,
  Site,
  SiteInstallationView,
  Space,
  SpaceInstallationView,
  SpacesGroup,
  UnservedGroup,
  UrlsGroup,
} from './platform-groups';
export { DOCUMENT_PAGE_ID, notServed, UNSERVED_GROUPS } from './platform-groups';
export type { Scope, ScopeAlias } from './scopes';
export { currentScopeName, isScope, SCOPE_ALIASES, SCOPES } from './scopes';
