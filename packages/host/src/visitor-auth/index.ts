export { siteUrl, withSiteFields } from './environment.js';
export { siteSigningSecret, visitorSessionKey } from './keys.js';
export { problemPage, sitePage, visitorName } from './page.js';
export { siteRoutes } from './routes.js';
export {
  askVisitorAuthentication,
  redirectTarget,
  type VisitorAuthTarget,
  visitorAuthTarget,
} from './service.js';
export {
  MAX_CLAIMS_BYTES,
  openSession,
  SESSION_COOKIE,
  SESSION_MAX_SECONDS,
  sealSession,
  sessionCookie,
  sessionCookieOf,
  sessionFromToken,
  siteLocation,
  type VisitorSession,
} from './session.js';
export { CLOCK_SKEW_SECONDS, verifyVisitorToken } from './token.js';
