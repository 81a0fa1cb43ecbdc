import { createHash } from 'node:crypto';
import type { Deployment } from './types.js';

/** What the loader worker receives for one deployment key. */
export interface DeploymentSource {
  readonly script: string;
  readonly vars: Readonly<Record<string, string>>;
}

const keys = new WeakMap<Deployment, string>();

/**
 * The key workerd caches a deployment under: a hash of id, script and env, so that reusing an id
 * with a different bundle or env can never serve stale code. Memoized per `Deployment` object.
 *
 * @example
 * deploymentKey({ id: 'hello@1.0.0#abc', script }); // '5d41402abc4b2a76b9719d911017c592'
 */
export function deploymentKey(deployment: Deployment): string {
  const known = keys.get(deployment);
  if (known !== undefined) return known;
  const env = Object.entries(deployment.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const key = createHash('sha256')
    .update(deployment.id)
    .update('\0')
    .update(deployment.script)
    .update('\0')
    .update(JSON.stringify(env))
    .digest('hex')
    .slice(0, 32);
  keys.set(deployment, key);
  return key;
}

/**
 * Checks the shape of a deployment given by a caller.
 *
 * @example
 * assertDeployment({ id: '', script: '' }); // throws TypeError: deployment.id must be a non-empty string ...
 */
export function assertDeployment(deployment: Deployment): void {
  if (typeof deployment?.id !== 'string' || deployment.id === '') {
    throw new TypeError('deployment.id must be a non-empty string, e.g. "hello@1.0.0#<bundleHash>"');
  }
  if (typeof deployment.script !== 'string') {
    throw new TypeError(`deployment.script of ${deployment.id} must be the ESM bundle source as a string`);
  }
  for (const [name, value] of Object.entries(deployment.env ?? {})) {
    if (typeof value !== 'string') {
      throw new TypeError(
        `deployment.env.${name} of ${deployment.id} must be a string (got ${typeof value})`,
      );
    }
  }
}

/**
 * Sources of the deployments workerd may ask for: every deployment with a call in flight
 * (pinned), plus the most recently used ones (so a load that outlives its call still finds its code).
 *
 * @example
 * const key = registry.acquire(deployment);
 * try { await send(key); } finally { registry.release(key); }
 */
export class DeploymentRegistry {
  readonly #entries = new Map<string, { source: DeploymentSource; id: string; pins: number }>();

  constructor(private readonly keepRecent = 32) {}

  /** Pins the deployment's source and returns its key. */
  acquire(deployment: Deployment): string {
    const key = deploymentKey(deployment);
    const entry = this.#entries.get(key) ?? {
      source: { script: deployment.script, vars: { ...deployment.env } },
      id: deployment.id,
      pins: 0,
    };
    entry.pins += 1;
    this.#entries.delete(key); // re-insert: Map order is the recency order
    this.#entries.set(key, entry);
    return key;
  }

  /** Unpins; evicts the least recently used unpinned sources beyond `keepRecent`. */
  release(key: string): void {
    const entry = this.#entries.get(key);
    if (entry !== undefined) entry.pins = Math.max(0, entry.pins - 1);
    let unpinned = 0;
    for (const e of this.#entries.values()) if (e.pins === 0) unpinned += 1;
    for (const [k, e] of this.#entries) {
      if (unpinned <= this.keepRecent) break;
      if (e.pins === 0) {
        this.#entries.delete(k);
        unpinned -= 1;
      }
    }
  }

  get(key: string): DeploymentSource | undefined {
    return this.#entries.get(key)?.source;
  }

  /** The deployment id of `key` while its source is kept (the outbound gate names its caller with it). */
  idOf(key: string): string | undefined {
    return this.#entries.get(key)?.id;
  }

  get size(): number {
    return this.#entries.size;
  }
}
