/** Escapes text for HTML. @example escapeHtml('<b>'); // '&lt;b&gt;' */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A small HTML page for the OAuth window; tells the opener the outcome through
 * `window.opener?.postMessage({ type: 'platform:oauth', ok }, '*')`.
 *
 * @example return htmlPage(400, 'Authorization failed', 'The link expired. Start again.', false);
 */
export function htmlPage(status: number, title: string, message: string, ok: boolean): Response {
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>
<script>window.opener?.postMessage({ type: 'platform:oauth', ok: ${ok ? 'true' : 'false'} }, '*');</script>
</body></html>`;
  return new Response(body, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}
