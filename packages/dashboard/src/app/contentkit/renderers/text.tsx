/** @jsxImportSource preact */
import type { ContentKitInline } from '@platform/api-client';
import { markdownToSafeHtml } from '../../markdown';
import type { Renderer, Renderers } from './types';

/**
 * Inline runs of `text`/`hint`: strings, styled `text`, `link`s (opened in a new tab).
 * @example <Inline runs={['See ', { type: 'link', target: { url: 'https://example.com' }, children: ['docs'] }]} />
 */
export function Inline({ runs }: { runs: ContentKitInline[] }) {
  return (
    <>
      {runs.map((run, i) => {
        if (typeof run === 'string') return run;
        if (run.type === 'link') {
          return (
            <a key={i} href={run.target.url} target="_blank" rel="noopener noreferrer">
              {run.children.join('')}
            </a>
          );
        }
        return <TextRun key={i} style={run.style} text={run.text} runs={run.children} />;
      })}
    </>
  );
}

function TextRun({ style, text, runs }: { style?: string; text?: string; runs?: ContentKitInline[] }) {
  const content = runs ? <Inline runs={runs} /> : text;
  const cls = `ck-text ck-text-${style ?? 'default'}`;
  if (style === 'code') return <code class={cls}>{content}</code>;
  if (style === 'strikethrough') return <s class={cls}>{content}</s>;
  return <span class={cls}>{content}</span>;
}

/** `text`. @example text({ type: 'text', text: 'Hi' }, 0, ctx) */
export const text: Renderer<'text'> = (n, key) => (
  <TextRun key={key} style={n.style} text={n.text} runs={n.children} />
);

/** `markdown`, sanitized by DOMPurify (no scripts, handlers, styles, forms or frames). @example markdown({ type: 'markdown', content: '**a**' }, 0, ctx) */
export const markdown: Renderer<'markdown'> = (n, key) => (
  <div key={key} class="ck-markdown" dangerouslySetInnerHTML={{ __html: markdownToSafeHtml(n.content) }} />
);

/** `hint`: a note. @example hint({ type: 'hint', children: ['Saved'] }, 0, ctx) */
export const hint: Renderer<'hint'> = (n, key) => (
  <p key={key} class={`ck-hint ck-hint-${n.style ?? 'info'}`} role="note">
    <Inline runs={n.children} />
  </p>
);

/**
 * The renderers of this file by element `type` ({@link RENDERERS} joins the files' maps). A new element
 * drawn here: its renderer above and its entry in this map.
 * @example textRenderers.hint
 */
export const textRenderers = { hint, markdown, text } satisfies Partial<Renderers>;
