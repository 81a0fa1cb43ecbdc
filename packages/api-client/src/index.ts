export type { ApiClient, ApiClientOptions } from './client';
export { createApiClient } from './client';
export type {
  ContentKitBlock,
  ContentKitButton,
  ContentKitDivider,
  ContentKitElement,
  ContentKitInput,
  ContentKitStack,
  ContentKitText,
} from './contentkit';
export type {
  ApiTokens,
  Installation,
  InstallationConfiguration,
  InstallationStatus,
  InstallationTarget,
  InstallationUrls,
  IntegrationEnvironment,
  IntegrationInfo,
  OrganizationInstallation,
  SiteInstallation,
  SpaceInstallation,
  SpaceSelection,
} from './environment';
export { ApiError, apiErrorFromResponse } from './errors';
export type {
  BaseEvent,
  ComponentAction,
  Event,
  EventOf,
  EventType,
  FetchEvent,
  FetchEventRequest,
  InstallationSetupEvent,
  PageFeedbackEvent,
  SiteViewEvent,
  SpaceContentUpdatedEvent,
  SpaceGitSyncCompletedEvent,
  SpaceGitSyncStartedEvent,
  SpaceInstallationSetupEvent,
  SpaceViewEvent,
  SpaceVisibilityUpdatedEvent,
  UIRenderEvent,
} from './events';
export { EVENT_TYPES } from './events';
export {
  describeEnvironmentProblem,
  describeEventProblem,
  isFetchEventRequest,
  isRecord,
  isUIRenderEvent,
} from './guards';
export type { Scope } from './scopes';
export { isScope, SCOPES } from './scopes';
export type {
  PageFeedback,
  PageFeedbackPayload,
  SiteViewPayload,
  SpaceContentUpdatedPayload,
  Visitor,
  WebhookEventType,
  WebhookPayload,
} from './webhook-payloads';
export { WEBHOOK_EVENT_TYPES } from './webhook-payloads';
