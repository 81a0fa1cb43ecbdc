// page.ts, service.ts and session.ts are public whole; token.ts's result types stay inside.
export * from './page.js';
export * from './service.js';
export * from './session.js';
export { CLOCK_SKEW_SECONDS, verifyVisitorToken } from './token.js';
