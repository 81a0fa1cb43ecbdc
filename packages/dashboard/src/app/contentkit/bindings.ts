import type { ComponentAction } from '@platform/api-client';

/** The component state as the renderer holds it (inputs update it without a round trip). */
export type State = Record<string, unknown>;

/** `{ "$state": "key" }` resolved against the state; any other value as is (deeply). */
export function resolveBindings(value: unknown, state: State): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveBindings(v, state));
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 1 && entries[0]?.[0] === '$state' && typeof entries[0][1] === 'string') {
      return state[entries[0][1]];
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, resolveBindings(v, state)]));
  }
  return value;
}

/** An action with its `{ $state }` bindings resolved (what the platform or integration receives). */
export function resolveAction(action: ComponentAction, state: State): ComponentAction {
  return resolveBindings(action, state) as ComponentAction;
}

/** Opens `url` in a new tab when it is http(s) (the `@ui.url.open` built-in). */
export function openUrl(url: unknown): void {
  if (typeof url === 'string' && /^https?:\/\//.test(url)) window.open(url, '_blank', 'noopener,noreferrer');
}
