import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type MarkdownBlockSpec, markdownToNodes, nodesToMarkdown } from './markdown';
import { type DocumentNode, spaceDocumentSchema } from './schema';

const SPECS: MarkdownBlockSpec[] = [
  { installationId: 'inst_d', componentId: 'diagram', codeblock: 'mermaid', body: 'content' },
  { installationId: 'inst_s', componentId: 'snippet', codeblock: 'sql', body: 'query' },
];

/** A block node of the specs above. */
const block = (id: string, spec: MarkdownBlockSpec, body: string): DocumentNode => ({
  type: 'block',
  id,
  installationId: spec.installationId,
  componentId: spec.componentId,
  props: { [spec.body]: body },
});
const [DIAGRAM, SNIPPET] = SPECS as [MarkdownBlockSpec, MarkdownBlockSpec];

function ids() {
  let n = 0;
  return () => `b${++n}`;
}

const PAGE = `# Release notes

Intro paragraph.

\`\`\`mermaid
graph TD
  A --> B
\`\`\`

Between.

\`\`\`js
console.log('kept as code');
\`\`\`

\`\`\`sql
select 1;
\`\`\`
`;

describe('markdownToNodes', () => {
  it('turns known fences into blocks with the body prop, keeps unknown fences as text, handles several blocks', () => {
    const nodes = markdownToNodes(PAGE, SPECS, ids());
    expect(nodes).toEqual([
      { type: 'text', text: '# Release notes\n\nIntro paragraph.' },
      block('b1', DIAGRAM, 'graph TD\n  A --> B'),
      { type: 'text', text: "Between.\n\n```js\nconsole.log('kept as code');\n```" },
      block('b2', SNIPPET, 'select 1;'),
    ]);
    expect(spaceDocumentSchema.safeParse({ nodes }).success).toBe(true);
  });

  it('matches the language (first word of the info string), tildes, longer fences and indentation', () => {
    const md = '~~~~ mermaid title="x"\nA\n```\nstill code\n~~~~\n  ```mermaid\n  B\n   C\n  ```\n';
    expect(markdownToNodes(md, SPECS, ids())).toEqual([
      expect.objectContaining({ id: 'b1', props: { content: 'A\n```\nstill code' } }),
      expect.objectContaining({ id: 'b2', props: { content: 'B\n C' } }),
    ]);
  });

  it('leaves everything as text without a matching spec, and ignores a fence inside another fence', () => {
    const md = '````md\n```mermaid\nA\n```\n````\n';
    expect(markdownToNodes(md, SPECS)).toEqual([{ type: 'text', text: md.trimEnd() }]);
    expect(markdownToNodes('```mermaid\nA\n```\n', [])).toEqual([
      { type: 'text', text: '```mermaid\nA\n```' },
    ]);
    expect(markdownToNodes('', SPECS)).toEqual([]);
  });

  it('runs an unclosed fence to the end, as CommonMark does; reads CRLF', () => {
    expect(markdownToNodes('text\r\n```mermaid\r\nA --> B\r\n', SPECS, ids())).toEqual([
      { type: 'text', text: 'text' },
      expect.objectContaining({ props: { content: 'A --> B' } }),
    ]);
  });
});

describe('nodesToMarkdown', () => {
  it('gives the Markdown back (round trip both ways)', () => {
    const nodes = markdownToNodes(PAGE, SPECS, ids());
    const { markdown, unconverted } = nodesToMarkdown(nodes, SPECS);
    expect(markdown).toBe(PAGE);
    expect(unconverted).toEqual([]);
    expect(markdownToNodes(markdown, SPECS, ids())).toEqual(nodes);
  });

  it('uses a fence longer than the backticks in the code; an empty body is an empty block', () => {
    const nodes: DocumentNode[] = [
      block('x', DIAGRAM, 'a ```` b'),
      { type: 'block', id: 'y', installationId: 'inst_d', componentId: 'diagram', props: {} },
    ];
    const { markdown } = nodesToMarkdown(nodes, SPECS);
    expect(markdown).toBe('`````mermaid\na ```` b\n`````\n\n```mermaid\n```\n');
    expect(markdownToNodes(markdown, SPECS, () => 'z').map((n) => n.type === 'block' && n.props)).toEqual([
      { content: 'a ```` b' },
      { content: '' },
    ]);
  });

  it('returns the blocks without a Markdown form instead of writing them', () => {
    const embed: DocumentNode = {
      type: 'block',
      id: 'e',
      installationId: 'inst_e',
      componentId: 'embed',
      props: { url: 'https://example.com' },
    };
    expect(nodesToMarkdown([{ type: 'text', text: 'Hi\n\n' }, embed], SPECS)).toEqual({
      markdown: 'Hi\n',
      unconverted: [embed],
    });
  });
});

describe('round trip (property)', () => {
  it('nodes -> Markdown -> nodes gives the same blocks and texts, whatever the code holds', () => {
    const line = fc.stringMatching(/^[^\r\n]{0,12}$/);
    const code = fc.array(fc.oneof(line, fc.constantFrom('```', '~~~', '````mermaid', '  ```')), {
      maxLength: 5,
    });
    const text = fc
      .array(fc.stringMatching(/^[a-z #*-]{1,10}$/), { minLength: 1, maxLength: 3 })
      .map((lines) => lines.join('\n').trim())
      .filter((t) => t !== '');
    const blockArb = fc.record({ spec: fc.constantFrom(...SPECS), code });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.option(text), blockArb), { maxLength: 4 }),
        fc.option(text),
        (pairs, tail) => {
          let n = 0;
          const nodes: DocumentNode[] = [];
          for (const [before, b] of pairs) {
            if (before !== null) nodes.push({ type: 'text', text: before });
            nodes.push(block(`b${++n}`, b.spec, b.code.join('\n')));
          }
          if (tail !== null) nodes.push({ type: 'text', text: tail });
          const { markdown } = nodesToMarkdown(nodes, SPECS);
          expect(markdownToNodes(markdown, SPECS, ids())).toEqual(nodes);
        },
      ),
      { numRuns: 300 },
    );
  });
});
