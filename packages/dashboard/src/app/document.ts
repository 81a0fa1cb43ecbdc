import {
  type DocumentBlockNode,
  type DocumentNode,
  type MarkdownBlockSpec,
  markdownToNodes,
} from '@platform/api-client';

/** What the editor needs of an insertable block to convert it to and from Markdown. */
export interface MarkdownCapable {
  installationId: string;
  blockId: string;
  /** The block's `blocks[].markdown` of its manifest. */
  markdown?: { codeblock: string; body: string };
}

/**
 * The Markdown specs of the blocks the editor can insert (installations of the space).
 *
 * @example
 * markdownSpecs(items); // [{ installationId: 'inst_1', componentId: 'diagram', codeblock: 'flow', body: 'content' }]
 */
export function markdownSpecs(items: readonly MarkdownCapable[]): MarkdownBlockSpec[] {
  return items.flatMap((item) =>
    item.markdown
      ? [{ installationId: item.installationId, componentId: item.blockId, ...item.markdown }]
      : [],
  );
}

/**
 * A document as the editor shows it: adjacent text nodes merged, empty ones dropped, and a text
 * node first (the page's text field, where typing starts).
 *
 * @example
 * normalizeNodes([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]); // [{ type: 'text', text: 'ab' }]
 */
export function normalizeNodes(nodes: readonly DocumentNode[]): DocumentNode[] {
  const out: DocumentNode[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (node.type === 'text' && last?.type === 'text')
      out[out.length - 1] = { type: 'text', text: last.text + node.text };
    else if (node.type === 'block' || node.text !== '') out.push(node);
  }
  if (out[0]?.type !== 'text') out.unshift({ type: 'text', text: '' });
  return out;
}

/**
 * Pastes Markdown into the text node at `index`, between `start` and `end` (the selection): the
 * code blocks of Markdown-capable blocks become those blocks, in place; `undefined` when the paste
 * holds none (the text field then takes it as typed text).
 *
 * @example
 * pasteMarkdown(nodes, 0, 5, 5, '```flow\nA --> B\n```', specs); // text, diagram block, rest of the text
 */
export function pasteMarkdown(
  nodes: readonly DocumentNode[],
  index: number,
  start: number,
  end: number,
  pasted: string,
  specs: readonly MarkdownBlockSpec[],
  newId?: () => string,
): DocumentNode[] | undefined {
  const target = nodes[index];
  if (target?.type !== 'text') return undefined;
  const converted = markdownToNodes(pasted, specs, newId);
  if (!converted.some((n) => n.type === 'block')) return undefined;
  return normalizeNodes([
    ...nodes.slice(0, index),
    { type: 'text', text: target.text.slice(0, start) },
    ...converted,
    { type: 'text', text: target.text.slice(end) },
    ...nodes.slice(index + 1),
  ]);
}

/**
 * A new block node for the editor.
 *
 * @example
 * newBlock({ installationId: 'inst_1', blockId: 'counter' }); // { type: 'block', id: 'blk_…', …, props: {} }
 */
export function newBlock(
  item: { installationId: string; blockId: string },
  extra: Partial<Pick<DocumentBlockNode, 'props' | 'unfurl'>> = {},
): DocumentBlockNode {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return {
    type: 'block',
    id: `blk_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`,
    installationId: item.installationId,
    componentId: item.blockId,
    props: extra.props ?? {},
    ...(extra.unfurl === undefined ? {} : { unfurl: extra.unfurl }),
  };
}

/**
 * Adds Markdown at the end of the page (the import dialog): its code blocks of Markdown-capable
 * blocks become those blocks; text follows the page's last text after a blank line.
 *
 * @example
 * appendMarkdown([{ type: 'text', text: 'Intro' }], 'More', []); // [{ type: 'text', text: 'Intro\n\nMore' }]
 */
export function appendMarkdown(
  nodes: readonly DocumentNode[],
  markdown: string,
  specs: readonly MarkdownBlockSpec[],
  newId?: () => string,
): DocumentNode[] {
  const added = markdownToNodes(markdown, specs, newId);
  const last = nodes[nodes.length - 1];
  const gap = last?.type === 'text' && last.text.trim() !== '' && added[0]?.type === 'text' ? '\n\n' : '';
  return normalizeNodes([...nodes, { type: 'text', text: gap }, ...added]);
}
