/**
 * Network address policy: which outbound targets the host may connect to (webhook deliveries
 * and the integrations' outbound gate). See README.md.
 *
 * @example
 * import { createGuardedDispatcher, parseAllowPrivateTargets } from './net/index.js';
 * const dispatcher = createGuardedDispatcher(parseAllowPrivateTargets(process.env.PLATFORM_ALLOW_PRIVATE_TARGETS));
 */
export { isPrivateAddress, type ParsedAddress, parseAddress, privateAddressReason } from './address.js';
export { createGuardedDispatcher, type GuardedDispatcherOptions, guardedLookup } from './dispatcher.js';
export { InvalidAddressPolicyError, TargetBlockedError } from './errors.js';
export { createGuardedFetch, findTargetBlocked, type GuardedFetchOptions } from './fetch.js';
export {
  FRAMING_HEADERS,
  forwardableRequestHeaders,
  HOP_BY_HOP_HEADERS,
  hopByHopNames,
} from './hop-by-hop.js';
export { type AddressPolicy, blockPrivateTargets, parseAllowPrivateTargets } from './policy.js';
export { normalizeHostname, validateWebhookUrl, type WebhookUrlCheck } from './url.js';
