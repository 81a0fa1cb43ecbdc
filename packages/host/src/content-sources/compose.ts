import type { ContentSourcePage, DocumentNode } from '@platform/api-client';
import { MAX_SOURCE_DEPTH, MAX_SOURCE_PAGES } from '@platform/api-client/document-schema';

/** A page of a revision in reading order, with its depth (0 for a top-level page). */
export interface FlatPage {
  page: ContentSourcePage;
  depth: number;
}

/**
 * The pages of a revision in reading order (each page before its children), or why they cannot be
 * stored: more than {@link MAX_SOURCE_PAGES} pages, deeper than {@link MAX_SOURCE_DEPTH}, or an id
 * used twice. Pure.
 *
 * @example
 * const flat = flattenPages([{ id: 'a', title: 'A', pages: [{ id: 'b', title: 'B' }] }]); // a (0), b (1)
 */
export function flattenPages(pages: readonly ContentSourcePage[]): FlatPage[] | { problem: string } {
  const out: FlatPage[] = [];
  const seen = new Set<string>();
  const walk = (list: readonly ContentSourcePage[], depth: number, path: string): string | undefined => {
    if (depth >= MAX_SOURCE_DEPTH) return `${path}: pages are nested at most ${MAX_SOURCE_DEPTH} deep`;
    for (const [i, page] of list.entries()) {
      if (seen.has(page.id))
        return `${path}.${i}.id: page id "${page.id}" is used twice; every page needs its own id`;
      seen.add(page.id);
      out.push({ page, depth });
      if (out.length > MAX_SOURCE_PAGES)
        return `a content source generates at most ${MAX_SOURCE_PAGES} pages`;
      const problem = walk(page.pages ?? [], depth + 1, `${path}.${i}.pages`);
      if (problem) return problem;
    }
    return undefined;
  };
  const problem = walk(pages, 0, 'pages');
  return problem ? { problem } : out;
}

/**
 * The space's document made of a source's pages (pure): for each page, a heading of its level (`#` for
 * a top-level page, `##` for its children, ...) with its description, then its document's nodes.
 * Blocks keep their ids prefixed with the page's (`<pageId>-<blockId>`, cut to 64 characters), so
 * two pages may use the same block ids.
 *
 * @example
 * composeDocument([{ page: { id: 'a', title: 'A' }, depth: 0 }], new Map([['a', [{ type: 'text', text: 'hi' }]]]));
 * // [{ type: 'text', text: '# A' }, { type: 'text', text: 'hi' }]
 */
export function composeDocument(
  pages: readonly FlatPage[],
  documents: ReadonlyMap<string, readonly DocumentNode[]>,
): DocumentNode[] {
  const nodes: DocumentNode[] = [];
  for (const { page, depth } of pages) {
    const heading = `${'#'.repeat(depth + 1)} ${page.title.replace(/\s+/g, ' ').trim()}`;
    nodes.push({ type: 'text', text: page.description ? `${heading}\n\n${page.description}` : heading });
    for (const node of documents.get(page.id) ?? []) {
      nodes.push(
        node.type === 'block'
          ? { ...node, id: `${page.id.replace(/\./g, '_')}-${node.id}`.slice(0, 64) }
          : node,
      );
    }
  }
  return nodes;
}
