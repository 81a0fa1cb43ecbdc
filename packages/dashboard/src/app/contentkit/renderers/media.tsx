/** @jsxImportSource preact */
import { Webframe } from '../webframe';
import type { Renderer, Renderers } from './types';

/** `image`. @example image({ type: 'image', source: { url: 'https://example.com/a.png' } }, 0, ctx) */
export const image: Renderer<'image'> = (n, key) => (
  <img
    key={key}
    class="ck-image"
    src={n.source.url}
    alt={n.alt ?? ''}
    style={n.aspectRatio ? { aspectRatio: String(n.aspectRatio) } : undefined}
  />
);

/** `codeblock`: read-only, or an editable text area bound to `state`. @example codeblock({ type: 'codeblock', content: 'a' }, 0, ctx) */
export const codeblock: Renderer<'codeblock'> = (n, key, ctx, field) => {
  const content = typeof n.content === 'string' ? n.content : String(ctx.state[n.content.$state] ?? '');
  const editable = n.state !== undefined;
  const value = editable ? String(ctx.bound(n.state as string, content) ?? '') : content;
  return (
    <figure key={key} class="ck-codeblock" aria-labelledby={field?.labelId} aria-describedby={field?.hintId}>
      {n.header ? <div class="ck-codeblock-header">{ctx.all(n.header)}</div> : null}
      {editable ? (
        <textarea
          class="ck-code"
          aria-label={`${n.syntax ?? 'code'} (editable)`}
          spellcheck={false}
          value={value}
          onInput={(e) => ctx.set(n.state as string)((e.currentTarget as HTMLTextAreaElement).value)}
          onBlur={() => (n.onContentChange ? ctx.press(n.onContentChange) : undefined)}
        />
      ) : (
        <pre class="ck-code" data-syntax={n.syntax}>
          <code data-syntax={n.syntax}>{value}</code>
        </pre>
      )}
      {n.footer ? <div class="ck-codeblock-footer">{ctx.all(n.footer)}</div> : null}
    </figure>
  );
};

/** `webframe`: a sandboxed frame with its message bridge. @example webframe({ type: 'webframe', source: { url: 'https://example.com' } }, 0, ctx) */
export const webframe: Renderer<'webframe'> = (n, key, ctx) => (
  <Webframe key={key} node={n} state={ctx.state} onAction={ctx.press} />
);

/**
 * The renderers of this file by element `type` ({@link RENDERERS} joins the files' maps). A new element
 * drawn here: its renderer above and its entry in this map.
 * @example mediaRenderers.codeblock
 */
export const mediaRenderers = { codeblock, image, webframe } satisfies Partial<Renderers>;
