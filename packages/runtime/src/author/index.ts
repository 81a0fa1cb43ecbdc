export { ExposableError } from './exposable-error';
export { Logger } from './logger';
export type { StoredOAuthCredentials } from './oauth-token';
export { getOAuthToken, OAUTH_REFRESH_MARGIN_MS } from './oauth-token';
export type * from './types';
