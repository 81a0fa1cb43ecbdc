import type { ComponentAction, ContentKitUrlParts } from '@platform/api-client';

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

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

/**
 * The URL a `select` reads its options from: an http(s) URL as given, or `{ host, pathname, query }`
 * with `https` (`http` for a loopback host) and the query's `{ $state }` values read from the state.
 *
 * @example resolveUrl({ host: 'example.com', pathname: '/b', query: { r: { $state: 'r' } } }, { r: 'x' }); // 'https://example.com/b?r=x'
 */
export function resolveUrl(url: string | ContentKitUrlParts, state: State): string {
  if (typeof url === 'string') return url;
  const out = new URL(`${LOOPBACK.test(url.host) ? 'http' : 'https'}://${url.host}${url.pathname}`);
  for (const [key, value] of Object.entries(url.query ?? {})) {
    const resolved = resolveBindings(value, state);
    if (resolved !== undefined && resolved !== null) out.searchParams.set(key, String(resolved));
  }
  return out.href;
}

/** Opens `url` in a new tab when it is http(s) (the `@ui.url.open` built-in). */
export function openUrl(url: unknown): void {
  if (typeof url === 'string' && /^https?:\/\//.test(url)) window.open(url, '_blank', 'noopener,noreferrer');
}
