import { WebhookConfigurationError } from './errors.js';

/**
 * Remembers which events were processed, so a redelivered `eventId` is acknowledged without running
 * your handler again. Plug in a shared store (Redis, a SQL table, KV) when several receiver processes
 * share the work: `has` answers whether the id was processed, `add` records it after success.
 *
 * @example
 * const redisStore: DedupeStore = {
 *   has: async (id) => (await redis.exists(`wh:${id}`)) === 1,
 *   add: async (id) => void (await redis.set(`wh:${id}`, '1', { EX: 86400 })),
 * };
 */
export interface DedupeStore {
  /** True when `eventId` was already processed successfully (and is still remembered). */
  has(eventId: string): boolean | Promise<boolean>;
  /** Records that `eventId` was processed successfully. Called only after `onEvent` resolved. */
  add(eventId: string): void | Promise<void>;
}

/** Options of {@link createMemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /** How long an id is remembered, in ms. Default 24 h. */
  ttlMs?: number;
  /** Most ids kept; the oldest are forgotten first. Default 10 000. */
  maxEntries?: number;
  /** Clock in ms. Default `Date.now`. */
  now?: () => number;
}

/** The in-memory store, with its size for tests and metrics. */
export interface MemoryDedupeStore extends DedupeStore {
  /** Ids currently remembered. */
  readonly size: number;
  has(eventId: string): boolean;
  add(eventId: string): void;
}

/**
 * The default {@link DedupeStore}: in-process memory, each id kept `ttlMs` (24 h), at most
 * `maxEntries` (10 000) ids, oldest evicted first. Lost on restart and not shared between processes.
 *
 * @example
 * const dedupe = createMemoryDedupeStore({ ttlMs: 60 * 60_000, maxEntries: 50_000 });
 * createWebhookHandler({ secret, dedupe, onEvent });
 */
export function createMemoryDedupeStore(options: MemoryDedupeStoreOptions = {}): MemoryDedupeStore {
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  if (!(ttlMs > 0)) throw new WebhookConfigurationError(`ttlMs must be > 0, got ${ttlMs}.`);
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new WebhookConfigurationError(`maxEntries must be an integer >= 1, got ${maxEntries}.`);
  }
  // Insertion order = expiry order (same TTL for all), so expired ids are always at the front.
  const expiries = new Map<string, number>();
  const purge = (): void => {
    const t = now();
    for (const [id, expiresAt] of expiries) {
      if (expiresAt > t) break;
      expiries.delete(id);
    }
  };
  return {
    get size() {
      purge();
      return expiries.size;
    },
    has(eventId) {
      purge();
      return expiries.has(eventId);
    },
    add(eventId) {
      purge();
      expiries.delete(eventId);
      expiries.set(eventId, now() + ttlMs);
      while (expiries.size > maxEntries) {
        const oldest = expiries.keys().next();
        if (oldest.done) break;
        expiries.delete(oldest.value);
      }
    },
  };
}
