/** Entries kept at most; the oldest is dropped first. */
export const RENDER_CACHE_ENTRIES = 500;

/**
 * Render outputs kept for their cache hint (`element.setCache({ maxAge })`): the same installation,
 * bundle, component, props, state and context within `maxAge` seconds gets the stored answer
 * without invoking the integration. Renders with an action are never cached (actions have effects).
 *
 * @example
 * const cache = new RenderCache();
 * const hit = cache.get(key); if (!hit) cache.set(key, body, 60);
 */
export class RenderCache {
  readonly #entries = new Map<string, { body: unknown; expires: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly capacity = RENDER_CACHE_ENTRIES,
  ) {}

  /** The cache key of a render request, or undefined when it must not be cached. */
  static keyOf(
    installationId: string,
    bundleHash: string,
    request: { componentId: string; props?: unknown; state?: unknown; context?: unknown; action?: unknown },
  ): string | undefined {
    if (request.action !== undefined) return undefined;
    const { componentId, props, state, context } = request;
    return JSON.stringify([
      installationId,
      bundleHash,
      componentId,
      props ?? {},
      state ?? null,
      context ?? null,
    ]);
  }

  get(key: string | undefined): unknown {
    if (key === undefined) return undefined;
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.body;
  }

  set(key: string | undefined, body: unknown, maxAgeSeconds: number | undefined): void {
    if (key === undefined || !maxAgeSeconds || maxAgeSeconds <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, { body, expires: this.now() + maxAgeSeconds * 1000 });
    while (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }
}
