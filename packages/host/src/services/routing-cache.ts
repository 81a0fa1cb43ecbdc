import type { InstallationRoute, RoutingRead } from '../storage/index.js';

/** How many scopes' routes a host keeps (the oldest read is dropped first). */
const MAX_SCOPES = 4_096;

/**
 * The routes of the scopes a host has accepted events for, all valid at one routing epoch, so that a
 * group of accepted events costs no routing read while nothing changes. Never trusted blindly: the group's
 * write stores nothing unless the epoch is still current (`events.insertWithJobs`' `routedAt`), and a
 * stale write resets the cache (docs/architecture.md, "Accepting events").
 *
 * @example
 * const cache = new RoutingCache();
 * let routes = cache.get(key);
 * if (!routes) {
 *   const read = await storage.installations.routes(scope);
 *   if (!cache.put(key, read)) {
 *     // the epoch moved on: routes taken from the cache earlier are stale, route them again
 *   }
 *   routes = read.routes;
 * }
 */
export class RoutingCache {
  #epoch: number | null = null;
  readonly #byScope = new Map<string, InstallationRoute[]>();
  readonly #maxScopes: number;

  constructor(maxScopes = MAX_SCOPES) {
    this.#maxScopes = maxScopes;
  }

  /** The epoch every cached route is valid at (null: nothing read yet, or just reset). */
  get epoch(): number | null {
    return this.#epoch;
  }

  /** The cached routes of a scope, or undefined. */
  get(scopeKey: string): InstallationRoute[] | undefined {
    return this.#byScope.get(scopeKey);
  }

  /**
   * Keeps a read (a null-epoch read reaches nothing whatever changes, and is not kept). Returns false when
   * the read saw another epoch than the cached routes: they are dropped, and routes used from them before
   * must be read again.
   */
  put(scopeKey: string, read: RoutingRead): boolean {
    if (read.epoch === null) return true;
    const consistent = this.#epoch === null || this.#epoch === read.epoch;
    if (!consistent) this.#byScope.clear();
    this.#epoch = read.epoch;
    if (this.#byScope.size >= this.#maxScopes && !this.#byScope.has(scopeKey)) {
      const oldest = this.#byScope.keys().next();
      if (!oldest.done) this.#byScope.delete(oldest.value);
    }
    this.#byScope.set(scopeKey, read.routes);
    return consistent;
  }

  /** Forgets every route: the routing epoch is now `epoch`. */
  reset(epoch: number): void {
    this.#byScope.clear();
    this.#epoch = epoch;
  }
}
