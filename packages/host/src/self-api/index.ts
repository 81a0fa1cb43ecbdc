/**
 * Calls of integration code to the host's own API (`environment.apiEndpoint`), served in-process by
 * the host instead of through the network (docs/host-api-from-integrations.md).
 */
export { createSelfApiGate, type SelfApiGateOptions, SelfApiRefusedError } from './gate.js';
export { type ApiHandler, selfApiOutbound } from './host.js';
export {
  getSite,
  getSpace,
  installedIn,
  missingPlaceScope,
  PLACE_READ_SCOPES,
  type SiteView,
  type SpaceView,
} from './places.js';
export { decideSelfCall, integrationOfDeployment, SELF_API_PREFIX, type SelfCallDecision } from './policy.js';
