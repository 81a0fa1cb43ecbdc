import type { DocumentBlockNode, DocumentNode } from './schema';

/**
 * A block that converts to and from a Markdown code block (`blocks[].markdown` of its manifest,
 * `{ codeblock, body }`), for one installation that provides it.
 */
export interface MarkdownBlockSpec {
  installationId: string;
  componentId: string;
  /** The code block language (`markdown.codeblock`), e.g. `mermaid`. */
  codeblock: string;
  /** The prop holding the code (`markdown.body`), e.g. `content`. */
  body: string;
}

/** A fence line: up to 3 spaces, then 3+ backticks or tildes, then the info string. */
const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;

interface Fence {
  indent: number;
  marker: string;
  info: string;
}

function openingFence(line: string): Fence | undefined {
  const match = FENCE_OPEN.exec(line);
  if (!match) return undefined;
  const [, indent = '', marker = '', info = ''] = match;
  if (marker.startsWith('`') && info.includes('`')) return undefined; // not a fence (CommonMark)
  return { indent: indent.length, marker, info: info.trim() };
}

function closes(line: string, fence: Fence): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  const marker = match?.[1];
  return marker !== undefined && marker[0] === fence.marker[0] && marker.length >= fence.marker.length;
}

/** The language of an info string: its first word (`mermaid` of `mermaid title="x"`). */
function language(info: string): string {
  return info.split(/\s+/, 1)[0] ?? '';
}

/** Drops blank lines at both ends of a text run. */
function trimBlankLines(lines: string[]): string {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] ?? '').trim() === '') start++;
  while (end > start && (lines[end - 1] ?? '').trim() === '') end--;
  return lines.slice(start, end).join('\n');
}

/** A new block id: random, URL-safe. */
function randomId(): string {
  const bytes = new Uint8Array(9);
  globalThis.crypto.getRandomValues(bytes);
  return `blk_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Markdown -> document nodes: a fenced code block whose language (the first word of its info
 * string) is the `codeblock` of a spec becomes that block, with the prop `body` set to the code;
 * every other line, other code blocks included, stays text (blank lines around a converted block
 * are dropped). The first spec of a language wins. An unclosed fence runs to the end, as in
 * CommonMark. See docs/documents.md "Markdown".
 *
 * @example
 * ```ts
 * markdownToNodes('Intro\n\n```mermaid\nA --> B\n```\n', [
 *   { installationId: 'inst_1', componentId: 'diagram', codeblock: 'mermaid', body: 'content' },
 * ]);
 * // [{ type: 'text', text: 'Intro' },
 * //  { type: 'block', id: 'blk_…', installationId: 'inst_1', componentId: 'diagram', props: { content: 'A --> B' } }]
 * ```
 */
export function markdownToNodes(
  markdown: string,
  specs: readonly MarkdownBlockSpec[],
  newId: () => string = randomId,
): DocumentNode[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const nodes: DocumentNode[] = [];
  let text: string[] = [];
  const flushText = () => {
    const joined = trimBlankLines(text);
    if (joined !== '') nodes.push({ type: 'text', text: joined });
    text = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = openingFence(line);
    if (!fence) {
      text.push(line);
      continue;
    }
    let end = i + 1;
    while (end < lines.length && !closes(lines[end] ?? '', fence)) end++;
    const spec = specs.find((s) => s.codeblock === language(fence.info));
    if (!spec) {
      text.push(...lines.slice(i, end + 1)); // an unknown fence stays, as written, in the text
      i = end;
      continue;
    }
    const strip = new RegExp(`^ {0,${fence.indent}}`);
    const code = lines.slice(i + 1, end).map((l) => l.replace(strip, ''));
    flushText();
    nodes.push({
      type: 'block',
      id: newId(),
      installationId: spec.installationId,
      componentId: spec.componentId,
      props: { [spec.body]: code.join('\n') },
    });
    i = end;
  }
  flushText();
  return nodes;
}

/** A fence longer than any run of backticks in the code. */
function fenceFor(code: string): string {
  const longest = Math.max(0, ...Array.from(code.matchAll(/`+/g), (m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * Document nodes -> Markdown: text as written, and each block that has a spec (matched by
 * installation and component) as a fenced code block of its `codeblock` language holding the prop
 * `body`; nodes are separated by a blank line. Blocks without a Markdown form are left out and
 * returned in `unconverted`, so the caller can say so. The reverse of {@link markdownToNodes}.
 *
 * @example
 * ```ts
 * nodesToMarkdown(nodes, specs).markdown; // 'Intro\n\n```mermaid\nA --> B\n```\n'
 * ```
 */
export function nodesToMarkdown(
  nodes: readonly DocumentNode[],
  specs: readonly MarkdownBlockSpec[],
): { markdown: string; unconverted: DocumentBlockNode[] } {
  const parts: string[] = [];
  const unconverted: DocumentBlockNode[] = [];
  for (const node of nodes) {
    if (node.type === 'text') {
      const text = trimBlankLines(node.text.replace(/\r\n?/g, '\n').split('\n'));
      if (text !== '') parts.push(text);
      continue;
    }
    const spec = specs.find(
      (s) => s.installationId === node.installationId && s.componentId === node.componentId,
    );
    if (!spec) {
      unconverted.push(node);
      continue;
    }
    const value = node.props[spec.body];
    const code = typeof value === 'string' ? value : '';
    const fence = fenceFor(code);
    parts.push(
      code === '' ? `${fence}${spec.codeblock}\n${fence}` : `${fence}${spec.codeblock}\n${code}\n${fence}`,
    );
  }
  return { markdown: parts.length ? `${parts.join('\n\n')}\n` : '', unconverted };
}
