import { useEffect, useState } from 'preact/hooks';

/** A page of the dashboard, from the address path. */
export type Route =
  | { page: 'integrations' }
  | { page: 'installations' }
  | { page: 'installation'; id: string }
  | { page: 'editor'; spaceId: string }
  | { page: 'status' }
  | { page: 'gallery' }
  | { page: 'organizations' }
  | { page: 'organization'; organization: string }
  | { page: 'audit' }
  | { page: 'not-found'; path: string };

/**
 * Parses an address path into a route.
 * @example parseRoute('/installations/inst_1'); // { page: 'installation', id: 'inst_1' }
 */
export function parseRoute(path: string): Route {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0 || (parts[0] === 'integrations' && parts.length === 1))
    return { page: 'integrations' };
  if (parts[0] === 'installations' && parts.length === 1) return { page: 'installations' };
  if (parts[0] === 'installations' && parts.length === 2) return { page: 'installation', id: parts[1]! };
  if (parts[0] === 'spaces' && parts.length === 2) return { page: 'editor', spaceId: parts[1]! };
  if (parts[0] === 'status' && parts.length === 1) return { page: 'status' };
  if (parts[0] === 'gallery' && parts.length === 1) return { page: 'gallery' };
  if (parts[0] === 'organizations' && parts.length === 1) return { page: 'organizations' };
  if (parts[0] === 'organizations' && parts.length === 2)
    return { page: 'organization', organization: parts[1]! };
  if (parts[0] === 'audit' && parts.length === 1) return { page: 'audit' };
  return { page: 'not-found', path };
}

/** Goes to a dashboard path without reloading. */
export function navigate(path: string): void {
  window.history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** The current route, updated on navigation. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.pathname));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location.pathname));
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return route;
}

/**
 * Click handler of an in-app link: navigates without reloading (plain clicks only, so
 * Ctrl/Cmd-click still opens a new tab).
 */
export function linkHandler(path: string) {
  return (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    event.preventDefault();
    navigate(path);
  };
}
