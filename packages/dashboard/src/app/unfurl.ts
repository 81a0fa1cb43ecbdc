/**
 * Whether a pasted URL matches a `blocks[].urlUnfurl` pattern: `*` is one path segment (or host
 * label), `**` any rest; a pattern without wildcards matches as a prefix
 * (packages/manifest/README.md, "Keys used by public integrations").
 *
 * @example
 * matchesUnfurl('https://github.com/**', 'https://github.com/a/b/blob/main/x.ts'); // true
 */
export function matchesUnfurl(pattern: string, url: string): boolean {
  if (!/[*]/.test(pattern)) return url.startsWith(pattern);
  const escaped = pattern
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${escaped}$`).test(url);
}

/**
 * The first item whose block unfurls `text` (a lone http(s) URL), if any.
 *
 * @example
 * const item = unfurlTarget(items, 'https://www.figma.com/file/abc'); // the Figma block, or undefined
 */
export function unfurlTarget<T extends { urlUnfurl?: string[] }>(
  items: readonly T[],
  text: string,
): T | undefined {
  const url = text.trim();
  if (!/^https?:\/\/\S+$/.test(url)) return undefined;
  return items.find((item) => item.urlUnfurl?.some((pattern) => matchesUnfurl(pattern, url)));
}
