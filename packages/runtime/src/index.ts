export type {
  ComponentAction,
  ContentComputeDocumentEvent,
  ContentComputeRevisionEvent,
  ContentKitElement,
  Event,
  EventOf,
  EventType,
  FetchPublishedScriptEvent,
  FetchVisitorAuthenticationEvent,
  IntegrationEnvironment,
  IntegrationTask,
  IntegrationTaskEvent,
  QueuedTask,
  QueueTaskRequest,
} from '@platform/api-client';
export type {
  EventByType,
  FetchEventCallback,
  FetchPublishScriptEventCallback,
  FetchVisitorAuthenticationEventCallback,
  RuntimeContext,
  RuntimeEnvironment,
  StoredOAuthCredentials,
} from './author';
export { ExposableError, getOAuthToken, Logger, OAUTH_REFRESH_MARGIN_MS } from './author';
export type {
  ActionResult,
  Component,
  ComponentData,
  ComponentDefinition,
  ComponentElement,
} from './component';
export { createComponent } from './component';
export type { ContentSourceDefinition, ContentSourceInput } from './content-source';
export { createContentSource } from './content-source';
export { ContentKit } from './contentkit';
export type { FetchHandler, IntegrationContext } from './context';
export { publicEndpointOf, publicPath } from './context';
export { EnvelopeError } from './envelope';
export { IntegrationError } from './errors';
export type {
  EventHandlers,
  ExecutionContextLike,
  IntegrationDefinition,
  IntegrationModule,
  RuntimeEventType,
} from './integration';
export { createIntegration, SUPPORTED_VERSIONS } from './integration';
export type { LogLevel, LogLine } from './logs';
export { LOGS_HEADER } from './logs';
export type { OAuthConfig, OAuthCredentials } from './oauth';
export { createOAuthHandler, defaultExtractCredentials } from './oauth';
export type { OAuthResponse, OAuthTokenResponse } from './oauth-response';
export { defaultOAuthExtractCredentials } from './oauth-response';
export { OAUTH_STATE_TTL_MS } from './oauth-state';
export { signPlatformBody, verifyPlatformSignature } from './platform-signature';
export type { PublicEndpointOptions } from './public-endpoint';
export { createPublicEndpointHandler } from './public-endpoint';
export type { IntegrationTasks } from './tasks';
export type { VisitorClaims } from './visitor-auth';
export { signVisitorToken, VISITOR_TOKEN_SECONDS, visitorReturnUrl } from './visitor-auth';
export type { WebhookSignatureOptions } from './webhook-signature';
export { verifyWebhookSignature } from './webhook-signature';
