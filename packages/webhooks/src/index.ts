// @platform/webhooks — sign and verify webhooks: X-Platform-Signature, Standard Webhooks v1 and v1a (ed25519). Platform-neutral core
// (Web Crypto only): runs in Node >= 20, Cloudflare Workers, Deno and Bun.
// node:http and Express helpers live in '@platform/webhooks/node' and '@platform/webhooks/express'.
export type { RawBody } from './bytes.js';
export type { DedupeStore, MemoryDedupeStore, MemoryDedupeStoreOptions } from './dedupe.js';
export { createMemoryDedupeStore } from './dedupe.js';
export type { SigningKeyPair } from './ed25519.js';
export { generateSigningKeyPair, PRIVATE_KEY_PREFIX, PUBLIC_KEY_PREFIX, publicKeyOf } from './ed25519.js';
export type { WebhookVerificationErrorCode } from './errors.js';
export { WebhookConfigurationError, WebhookVerificationError } from './errors.js';
export type {
  PageFeedbackWebhookEvent,
  SiteViewWebhookEvent,
  SpaceContentUpdatedWebhookEvent,
  WebhookEvent,
  WebhookEventType,
  WebhookVisitor,
} from './events.js';
export { parseEvent, verifyEvent } from './events.js';
export { createWebhookHandler } from './handler.js';
export type { ParsedSignatureHeader } from './header.js';
export { parseSignatureHeader, SIGNATURE_HEADER } from './header.js';
export type {
  IncomingWebhook,
  WebhookErrorInfo,
  WebhookHandlerOptions,
  WebhookMeta,
  WebhookReply,
} from './receiver.js';
export { createWebhookProcessor, WebhookRequestError } from './receiver.js';
export type { SignatureScheme } from './schemes.js';
export { DEFAULT_SIGNATURE_SCHEME, isSignatureScheme, SIGNATURE_SCHEMES } from './schemes.js';
export { generateSecret } from './secret.js';
export type { SignOptions, VerifiedSignature, VerifyOptions } from './signature.js';
export { DEFAULT_TOLERANCE_SECONDS, sign, verify } from './signature.js';
export type {
  HeaderSource,
  StandardSignOptions,
  StandardVerificationKeys,
  StandardWebhookHeaders,
  VerifiedStandardSignature,
} from './standard.js';
export {
  STANDARD_WEBHOOK_HEADERS,
  signStandard,
  standardSecret,
  standardSecretKey,
  verifyStandard,
} from './standard.js';

/** Headers the platform sends with every webhook delivery (lowercase, as node exposes them). */
export const WEBHOOK_HEADERS = {
  signature: 'x-platform-signature',
  eventId: 'x-platform-event-id',
  eventType: 'x-platform-event-type',
  deliveryId: 'x-platform-delivery-id',
  deliveryAttempt: 'x-platform-delivery-attempt',
} as const;
