import DOMPurify from 'dompurify';
import { marked } from 'marked';

/**
 * Renders an integration's Markdown summary to HTML that is safe to insert: `marked` for the
 * Markdown, DOMPurify for the output (no scripts, handlers, styles, forms or frames); links open
 * in a new tab without an opener.
 *
 * @example element.innerHTML = markdownToSafeHtml(manifest.summary);
 */
export function markdownToSafeHtml(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: false });
  const clean = DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'img'],
    FORBID_ATTR: ['style'],
  });
  const template = document.createElement('template');
  template.innerHTML = clean;
  for (const link of template.content.querySelectorAll('a')) {
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer');
  }
  return template.innerHTML;
}
