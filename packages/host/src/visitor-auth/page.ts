import type { VisitorSession } from './session.js';

/** The pages' policy: nothing loads, no script runs; inline style only. */
export const SITE_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'";

function escapeText(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeText(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#1f2328}
code,pre{font:14px ui-monospace,monospace;background:#f6f8fa;border-radius:6px}pre{padding:1rem;overflow:auto}
.who{padding:.75rem 1rem;border:1px solid #d0d7de;border-radius:6px}</style></head>
<body>${body}</body></html>`;
}

/** Who a visitor is, from their claims: `name`, else `email`, else `sub`. @example visitorName({ sub: 'u1' }); // 'u1' */
export function visitorName(claims: Record<string, unknown>): string {
  for (const key of ['name', 'email', 'sub']) {
    const value = claims[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return 'an authenticated visitor';
}

/**
 * The page of a site the host shows (docs/visitor-authentication.md "The site page"): the site, the
 * location, and for a signed-in visitor who they are, their claims and a logout link.
 *
 * @example
 * const html = sitePage('site_1', '/guide', session, '/sites/site_1');
 */
export function sitePage(
  siteId: string,
  location: string,
  session: VisitorSession | undefined,
  base: string,
): string {
  const who = session
    ? `<div class="who" id="visitor">Signed in as <strong>${escapeText(visitorName(session.claims))}</strong>
 until ${escapeText(new Date(session.expiresAt * 1000).toISOString())}. <a href="${escapeText(base)}/~visitor/logout">Log out</a></div>
<h2>Your claims</h2><pre id="claims">${escapeText(JSON.stringify(session.claims, null, 2))}</pre>`
    : '<p id="visitor">This site is public.</p>';
  return layout(
    `${siteId}${location}`,
    `<h1>Site <code>${escapeText(siteId)}</code></h1><p>Page <code id="location">${escapeText(location)}</code></p>${who}`,
  );
}

/**
 * The page shown when a visitor cannot be let in (a refused token, a guard not set up) or logged out:
 * what happened and what to do next (`link` to `retry`), never a secret.
 *
 * @example
 * const html = problemPage('Sign-in refused', 'the token has expired', '/sites/site_1/');
 */
export function problemPage(title: string, detail: string, retry: string, link = 'Try again'): string {
  return layout(
    title,
    `<h1>${escapeText(title)}</h1><p id="problem">${escapeText(detail)}</p><p><a href="${escapeText(retry)}">${escapeText(link)}</a></p>`,
  );
}
