// The receiver logic shared by the fetch, node:http and Express helpers: method check, size limit,
// verification, deduplication by eventId, calling onEvent, and the JSON answers. No I/O of its own:
// adapters hand it the method, a header getter and a body reader, and write back the reply.
import type { DedupeStore } from './dedupe.js';
import { createMemoryDedupeStore } from './dedupe.js';
import { WebhookConfigurationError, WebhookVerificationError } from './errors.js';
import { parseEvent, type WebhookEvent } from './events.js';
import type { SignatureScheme } from './schemes.js';
import { checkTolerance, DEFAULT_TOLERANCE_SECONDS, normalizeSecrets, verify } from './signature.js';
import { type StandardVerificationKeys, verifyStandard } from './standard.js';

/** Delivery details passed to `onEvent` beside the event. */
export interface WebhookMeta {
  /** `t` of the verified signature (unix seconds). */
  timestamp: number;
  /** `X-Platform-Delivery-Id` (stable across retries of one delivery), or null if absent. */
  deliveryId: string | null;
  /** `X-Platform-Delivery-Attempt` (1-based), or null if absent. */
  attempt: number | null;
}

/** Where a reported error happened (see `onError`). */
export interface WebhookErrorInfo {
  stage: 'verification' | 'handler' | 'dedupe' | 'configuration' | 'body';
  eventId?: string;
}

/** Options of every receiver helper. */
export interface WebhookHandlerOptions {
  /**
   * The webhook secret (`whsec_...`), or several during a rotation (any one verifies): schemes
   * `platform` and `standard-webhooks`.
   */
  secret?: string | readonly string[];
  /**
   * How the installation signs (its `signature_scheme`). Default `platform` (`X-Platform-Signature`);
   * `standard-webhooks` checks `webhook-signature` `v1` with `secret`; `ed25519` checks `v1a` with `publicKey`.
   */
  scheme?: SignatureScheme;
  /** The installation's ed25519 public key (`whpk_...`), or several: scheme `ed25519`. */
  publicKey?: string | readonly string[];
  /** Your code. Throw (or reject) to answer 500 so the platform retries; the event is then not marked seen. */
  onEvent: (event: WebhookEvent, meta: WebhookMeta) => unknown;
  /** Accepted age of the signature timestamp in seconds, both ways. Default 300. */
  tolerance?: number;
  /** Where processed eventIds are remembered; `false` disables deduplication. Default: in-memory, 24 h. */
  dedupe?: DedupeStore | false;
  /** Largest accepted body in bytes (413 above). Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Told about every failure: rejected requests (`verification`, `body`), a throwing `onEvent`
   * (`handler`), a failing store (`dedupe`), a misconfigured server (`configuration`). Default: logs
   * all but `verification` and `body` with console.error. Messages never contain secrets.
   */
  onError?: (error: unknown, info: WebhookErrorInfo) => void;
  /** Clock in ms, for tests. Default `Date.now`. */
  now?: () => number;
}

/** A failure an adapter raises while reading the body (too large, already parsed, stream error). */
export class WebhookRequestError extends Error {
  override readonly name = 'WebhookRequestError';
  constructor(
    readonly code: 'body_too_large' | 'body_already_parsed' | 'body_read_failed',
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** What an adapter gives the processor. */
export interface IncomingWebhook {
  method: string;
  header(name: string): string | null;
  /** Reads the raw body, at most `maxBodyBytes`; throws {@link WebhookRequestError}. */
  readBody(maxBodyBytes: number): Promise<Uint8Array>;
}

/** What the processor answers; adapters write it out. */
export interface WebhookReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

function json(status: number, value: unknown, extra: Record<string, string> = {}): WebhookReply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...extra },
    body: JSON.stringify(value),
  };
}

function errorReply(
  status: number,
  code: string,
  message: string,
  extra?: Record<string, string>,
): WebhookReply {
  return json(status, { error: { code, message } }, extra);
}

function defaultOnError(error: unknown, info: WebhookErrorInfo): void {
  if (info.stage === 'verification' || info.stage === 'body') return;
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const where = info.eventId ? ` (event ${info.eventId})` : '';
  console.error(`[@platform/webhooks] ${info.stage} error${where}: ${detail}`);
}

function parseAttempt(value: string | null): number | null {
  if (value === null || !/^\d{1,9}$/.test(value.trim())) return null;
  return Number(value.trim());
}

type RequestVerifier = (
  body: Uint8Array,
  header: (name: string) => string | null,
  options: { tolerance: number; now: () => number },
) => Promise<{ timestamp: number }>;

/** The check of the configured scheme, its keys validated up front. */
function verifierOf(options: WebhookHandlerOptions): RequestVerifier {
  const scheme = options.scheme ?? 'platform';
  if (scheme === 'platform') {
    const secrets = normalizeSecrets(options.secret ?? []);
    return (body, header, opts) => verify(body, header('x-platform-signature'), secrets, opts);
  }
  let keys: StandardVerificationKeys;
  if (scheme === 'standard-webhooks') keys = { secret: normalizeSecrets(options.secret ?? []) };
  else if (scheme === 'ed25519') {
    if (options.publicKey === undefined || options.publicKey.length === 0) {
      throw new WebhookConfigurationError(
        'scheme "ed25519" needs publicKey: the installation\'s public key (whpk_...), shown by the dashboard, `platform webhooks public-key` or GET /v1/installations/{id}/webhook-public-key.',
      );
    }
    keys = { publicKey: options.publicKey };
  } else {
    throw new WebhookConfigurationError(
      `scheme must be "platform", "standard-webhooks" or "ed25519", got ${JSON.stringify(scheme)}.`,
    );
  }
  return (body, header, opts) => verifyStandard(body, (name) => header(name), keys, opts);
}

/**
 * Builds the adapter-independent receiver. Adapters (fetch, node:http, Express) are thin wrappers.
 *
 * @example
 * const process = createWebhookProcessor({ secret, onEvent });
 * const reply = await process({ method: 'POST', header: (n) => headers.get(n), readBody: async () => bytes });
 */
export function createWebhookProcessor(
  options: WebhookHandlerOptions,
): (incoming: IncomingWebhook) => Promise<WebhookReply> {
  const verifyRequest = verifierOf(options);
  const tolerance = checkTolerance(options.tolerance ?? DEFAULT_TOLERANCE_SECONDS);
  if (typeof options.onEvent !== 'function') {
    throw new WebhookConfigurationError('onEvent must be a function (event, meta) => void | Promise<void>.');
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new WebhookConfigurationError(`maxBodyBytes must be a positive integer, got ${maxBodyBytes}.`);
  }
  const dedupe = options.dedupe === undefined ? createMemoryDedupeStore() : options.dedupe;
  const report = (error: unknown, info: WebhookErrorInfo): void => {
    try {
      (options.onError ?? defaultOnError)(error, info);
    } catch {
      // A broken logger must not turn into a wrong answer.
    }
  };
  // Events being processed right now in this process: a concurrent redelivery waits for the outcome
  // (true = processed) instead of running onEvent twice or acknowledging an event that then fails.
  const inFlight = new Map<string, Promise<boolean>>();

  const handleEvent = async (event: WebhookEvent, meta: WebhookMeta): Promise<WebhookReply> => {
    const id = event.eventId;
    const duplicate = json(200, { received: true, duplicate: true });
    if (dedupe === false) return run(event, meta, null);
    for (let pending = inFlight.get(id); pending; pending = inFlight.get(id)) {
      if (await pending) return duplicate;
    }
    let settle: (processed: boolean) => void = () => {};
    inFlight.set(id, new Promise<boolean>((resolve) => (settle = resolve)));
    let processed = false;
    try {
      if (await dedupe.has(id)) {
        processed = true;
        return duplicate;
      }
      const reply = await run(event, meta, dedupe);
      processed = reply.status === 200;
      return reply;
    } catch (error) {
      report(error, { stage: 'dedupe', eventId: id });
      return errorReply(500, 'dedupe_failed', 'The receiver could not check for duplicates; retry later.');
    } finally {
      inFlight.delete(id);
      settle(processed);
    }
  };

  const run = async (
    event: WebhookEvent,
    meta: WebhookMeta,
    store: DedupeStore | null,
  ): Promise<WebhookReply> => {
    try {
      await options.onEvent(event, meta);
    } catch (error) {
      report(error, { stage: 'handler', eventId: event.eventId });
      return errorReply(500, 'handler_failed', 'The webhook handler failed; the delivery may be retried.');
    }
    if (store) {
      try {
        await store.add(event.eventId);
      } catch (error) {
        // The event was processed: acknowledge it; a redelivery may run onEvent again.
        report(error, { stage: 'dedupe', eventId: event.eventId });
      }
    }
    return json(200, { received: true });
  };

  return async (incoming) => {
    if (incoming.method.toUpperCase() !== 'POST') {
      return errorReply(
        405,
        'method_not_allowed',
        `Method ${incoming.method} is not allowed: webhooks are POSTed.`,
        {
          allow: 'POST',
        },
      );
    }
    let body: Uint8Array;
    try {
      body = await incoming.readBody(maxBodyBytes);
    } catch (error) {
      if (!(error instanceof WebhookRequestError)) throw error;
      report(error, { stage: error.status >= 500 ? 'configuration' : 'body' });
      return errorReply(error.status, error.code, error.message);
    }
    let event: WebhookEvent;
    let timestamp: number;
    try {
      ({ timestamp } = await verifyRequest(body, incoming.header, {
        tolerance,
        now: options.now ?? Date.now,
      }));
      event = parseEvent(body);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      report(error, { stage: 'verification' });
      return errorReply(error.status, error.code, error.message);
    }
    const meta: WebhookMeta = {
      timestamp,
      deliveryId: incoming.header('x-platform-delivery-id'),
      attempt: parseAttempt(incoming.header('x-platform-delivery-attempt')),
    };
    return handleEvent(event, meta);
  };
}
