export { problemPage, SITE_PAGE_CSP, sitePage, visitorName } from './page.js';
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
