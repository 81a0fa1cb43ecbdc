/**
 * A webhook endpoint's own settings (docs/contracts.md "Endpoint settings"): custom headers, authentication
 * (basic, bearer, OAuth2 client credentials), a payload filter and a rate limit. Opt-in per installation;
 * without them a delivery is exactly the spec's. Validation and filter evaluation are pure; the OAuth2
 * token client does the I/O.
 *
 * @example
 * import { endpointSettingProblems, separateCredentials } from './delivery/endpoint/index.js';
 * const problems = endpointSettingProblems({ headers: { Host: 'x' } }); // names the header
 */
export {
  AUTH_SECRET_FIELD,
  authSecret,
  type EndpointAuth,
  endpointAuthSchema,
  staticAuthorization,
} from './auth.js';
// The payload filter: its language, limits and evaluation, all of it public.
export * from './filter.js';
export { customHeaderProblems, HEADER_NAME_PATTERN, MAX_CUSTOM_HEADERS, REFUSED_HEADERS } from './headers.js';
export { DEFAULT_TOKEN_TTL_MS, type OAuth2Auth, OAuthTokenError, OAuthTokens } from './oauth2.js';
export { RateSchedule, type RateTurn } from './rate-limit.js';
export {
  ENDPOINT_KEYS,
  type EndpointCredentials,
  type EndpointKey,
  type EndpointSettings,
  endpointSettingProblems,
  endpointSettings,
  MASKED,
  type SettingProblem,
  separateCredentials,
} from './settings.js';
