/** What a portal link carries in its fragment: the session token and where the host API is. */
export interface PortalLink {
  token: string;
  /** Base URL of the host API (`http://127.0.0.1:8080`). */
  api: string;
}

/**
 * Reads a portal link's fragment (`#token=pps_…&api=<API base URL>`, made by `POST /v1/portal/sessions`):
 * the link, or why it cannot be used, in words. Pure: the caller removes the fragment from the address bar.
 *
 * @example
 * readPortalLink('#token=pps_abc&api=http%3A%2F%2F127.0.0.1%3A8080');
 * // { link: { token: 'pps_abc', api: 'http://127.0.0.1:8080' } }
 */
export function readPortalLink(hash: string): { link: PortalLink } | { problem: string } {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const token = fragment.get('token') ?? '';
  const api = (fragment.get('api') ?? '').replace(/\/+$/, '');
  if (!token && !api) {
    return {
      problem:
        'This page opens from a portal link. The link is kept only in this tab while it is open, so a reload needs the link again: open it from where you received it, or ask for a new one.',
    };
  }
  if (!/^pps_[A-Za-z0-9_-]+$/.test(token)) {
    return {
      problem: 'This portal link is incomplete: its token is missing or damaged. Ask for a new link.',
    };
  }
  let base: URL;
  try {
    base = new URL(api);
  } catch {
    return {
      problem: 'This portal link is incomplete: it does not say where the API is. Ask for a new link.',
    };
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') {
    return { problem: 'This portal link names an API that is not an http(s) address. Ask for a new link.' };
  }
  return { link: { token, api } };
}

/**
 * Takes the portal link out of the page's address (and so out of its history entry, bookmarks and
 * anything that reads `location` later), leaving the path and query.
 *
 * @example
 * const result = readPortalLink(location.hash); forgetFragment(window);
 */
export function forgetFragment(win: Pick<Window, 'location' | 'history'>): void {
  if (!win.location.hash) return;
  win.history.replaceState(null, '', `${win.location.pathname}${win.location.search}`);
}
