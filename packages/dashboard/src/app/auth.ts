/**
 * Where the operator token is kept. By default for this browser tab only (sessionStorage: gone when
 * the tab closes); with "Stay signed in on this browser" also in localStorage, shared by every tab
 * until **Sign out**. Why per tab is the default: see packages/dashboard/README.md "Sign-in".
 */
const KEY = 'platform.adminToken';

function stores(win: Window): Storage[] {
  const out: Storage[] = [];
  for (const read of [() => win.sessionStorage, () => win.localStorage]) {
    try {
      out.push(read());
    } catch {
      // storage disabled
    }
  }
  return out;
}

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

/**
 * The token kept for this tab, or remembered for this browser, if any.
 * @example const token = storedToken(window);
 */
export function storedToken(win: Window): string | null {
  for (const store of stores(win)) {
    const token = store.getItem(KEY);
    if (token) return token;
  }
  return null;
}

/**
 * Keeps the token for this tab; with `remember`, for every tab of this browser until sign-out.
 * @example storeToken(window, token, { remember: true });
 */
export function storeToken(win: Window, token: string, options: { remember?: boolean } = {}): void {
  try {
    win.sessionStorage.setItem(KEY, token);
    if (options.remember) win.localStorage.setItem(KEY, token);
  } catch {
    // storage disabled: the token lives in memory only
  }
}

/**
 * Forgets the token, in this tab and in this browser.
 * @example clearToken(window); // Sign out
 */
export function clearToken(win: Window): void {
  for (const store of stores(win)) store.removeItem(KEY);
}

/**
 * Calls `signedOut` when another tab of this browser signs out (the remembered token is removed).
 * @example useEffect(() => onSignOutElsewhere(window, () => setToken(null)), []);
 */
export function onSignOutElsewhere(win: Window, signedOut: () => void): () => void {
  const listener = (event: StorageEvent) => {
    if (event.key === KEY && event.newValue === null && event.oldValue !== null) {
      clearToken(win);
      signedOut();
    }
  };
  win.addEventListener('storage', listener);
  return () => win.removeEventListener('storage', listener);
}
