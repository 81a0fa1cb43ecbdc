import type { Storage } from '../../storage/index.js';
import { afterExhausted, afterSucceeded } from '../health.js';

/** How often the engine reads which endpoints are failing or disabled (this host's and the other hosts' changes). */
export const HEALTH_REFRESH_MS = 1000;

/** What the engine tells of an endpoint's health (for the operator events and the log). */
export type HealthEvent =
  | { type: 'endpoint.disabled'; installationId: string; failingSince: number; at: number }
  | { type: 'endpoint.recovered'; installationId: string; enabledAt: number; at: number };

/** Where {@link EndpointHealthWatch} reports. */
export interface EndpointHealthHooks {
  /** An endpoint was disabled, or delivered to again after being enabled. */
  onEvent(event: HealthEvent): void;
  /** Endpoints were enabled again (by the API, here or on another host): their deliveries may be claimed. */
  onEnabled(installationIds: readonly string[]): void;
  onError(error: unknown, what: string): void;
}

/**
 * The delivery engine's view of endpoint health (docs/contracts.md "Endpoint health"): records exhausted
 * and (for endpoints that were failing) succeeded deliveries through `delivery/health.ts`, knows which
 * endpoints are disabled (read every {@link HEALTH_REFRESH_MS}: a change through another host applies
 * within it), and keeps a disabled endpoint's deliveries `held`. A healthy endpoint costs nothing per
 * delivery: only endpoints with a record are written to on success.
 *
 * @example
 * const health = new EndpointHealthWatch(storage, config.endpointDisableAfterMs, hooks);
 * health.start();
 * if (health.isDisabled('inst_1')) { ... }
 * await health.exhausted('inst_1', Date.now());
 */
export class EndpointHealthWatch {
  #disabled = new Set<string>();
  /** `#disabled` as a list, made when it changes (every claim reads it). */
  #disabledList: readonly string[] = [];
  #tracked = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #refreshing: Promise<void> | undefined;
  readonly #storage: Storage;
  readonly #disableAfterMs: number;
  readonly #hooks: EndpointHealthHooks;

  constructor(storage: Storage, disableAfterMs: number, hooks: EndpointHealthHooks) {
    this.#storage = storage;
    this.#disableAfterMs = disableAfterMs;
    this.#hooks = hooks;
  }

  /** Reads the state now and every {@link HEALTH_REFRESH_MS}. */
  start(): void {
    void this.refresh();
    this.#timer = setInterval(() => void this.refresh(), HEALTH_REFRESH_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  isDisabled(installationId: string): boolean {
    return this.#disabled.has(installationId);
  }

  /** Whether the endpoint has a health record (failing, disabled, or enabled again): only then does a success write. */
  isTracked(installationId: string): boolean {
    return this.#tracked.has(installationId);
  }

  /** The disabled endpoints' installations. */
  disabled(): readonly string[] {
    return this.#disabledList;
  }

  /** Reads which endpoints are tracked and disabled; keeps the disabled ones' queued deliveries held. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#refresh().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #refresh(): Promise<void> {
    try {
      const records = await this.#storage.endpointHealth.list();
      const disabled = new Set(records.filter((r) => r.disabledAt !== null).map((r) => r.installationId));
      const enabled = [...this.#disabled].filter((id) => !disabled.has(id));
      this.#disabled = disabled;
      this.#disabledList = [...disabled];
      this.#tracked = new Set(records.map((r) => r.installationId));
      // Retries scheduled, and deliveries handed back, since the endpoint was disabled: kept with the others.
      const now = Date.now();
      for (const id of disabled) await this.#storage.endpointHealth.holdDeliveries(id, now);
      if (enabled.length > 0) this.#hooks.onEnabled(enabled);
    } catch (error) {
      this.#hooks.onError(error, 'could not read the health of webhook endpoints');
    }
  }

  /** A delivery to the installation's endpoint ended `exhausted` at `now`. */
  async exhausted(installationId: string, now: number): Promise<void> {
    const { disabled, state } = await this.#storage.endpointHealth.change(installationId, now, (current) =>
      afterExhausted(current, now, this.#disableAfterMs),
    );
    this.#tracked.add(installationId);
    if (!disabled) return;
    this.#disabled.add(installationId);
    this.#disabledList = [...this.#disabled];
    await this.#storage.endpointHealth.holdDeliveries(installationId, now);
    this.#hooks.onEvent({
      type: 'endpoint.disabled',
      installationId,
      failingSince: state.failingSince ?? now,
      at: now,
    });
  }

  /** A delivery to the installation's endpoint succeeded (a write only when the endpoint was tracked). */
  async succeeded(installationId: string, now: number): Promise<void> {
    if (!this.#tracked.has(installationId)) return;
    let enabledAt = now;
    const { recovered, state } = await this.#storage.endpointHealth.change(installationId, now, (current) => {
      enabledAt = current.enabledAt ?? now;
      return afterSucceeded(current);
    });
    if (state.disabledAt === null) this.#tracked.delete(installationId);
    if (recovered) this.#hooks.onEvent({ type: 'endpoint.recovered', installationId, enabledAt, at: now });
  }
}
