/** Where the operator token is kept: for this browser tab only, gone when it closes. */
const KEY = 'platform.adminToken';

/**
 * Reads a token handed over in the address (`/#token=...`), stores it and removes the fragment
 * from the address bar (and the history entry). The fragment never reaches the server.
 * @example const token = takeTokenFromFragment(window) ?? storedToken(window);
 */
export function takeTokenFromFragment(win: Window): string | null {
  const match = /^#token=([^&]+)/.exec(win.location.hash);
  if (!match) return null;
  const token = decodeURIComponent(match[1]!);
  win.history.replaceState(null, '', win.location.pathname + win.location.search);
  storeToken(win, token);
  return token;
}

/** The token kept for this tab, if any. */
export function storedToken(win: Window): string | null {
  try {
    return win.sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** Keeps the token for this tab. */
export function storeToken(win: Window, token: string): void {
  try {
    win.sessionStorage.setItem(KEY, token);
  } catch {
    // storage disabled: the token lives in memory only
  }
}

/** Forgets the token. */
export function clearToken(win: Window): void {
  try {
    win.sessionStorage.removeItem(KEY);
  } catch {
    // nothing stored
  }
}
