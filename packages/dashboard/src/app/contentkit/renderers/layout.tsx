/** @jsxImportSource preact */

import { Button } from './button';
import type { DrawContext, ElementOf, Renderer, Renderers } from './types';

/** `block`: its controls as a toolbar, then its children. @example block({ type: 'block', children: [] }, 0, ctx) */
export const block: Renderer<'block'> = (n, key, ctx) => (
  <div key={key} class="ck-block">
    {n.controls?.length ? (
      <div class="ck-controls" role="toolbar" aria-label="Block controls">
        {n.controls.map((b, i) => (
          <Button key={i} node={{ ...b, type: 'button' }} busy={ctx.busy} press={ctx.press} />
        ))}
      </div>
    ) : null}
    {ctx.all(n.children)}
  </div>
);

/** `configuration`: drawn like a block. @example configuration({ type: 'configuration', children: [] }, 0, ctx) */
export const configuration: Renderer<'configuration'> = (n, key, ctx) => (
  <div key={key} class="ck-block ck-configuration">
    {ctx.all(n.children)}
  </div>
);

/** `modal`: a labelled section (the dialog itself is the page's). @example modal({ type: 'modal', children: [] }, 0, ctx) */
export const modal: Renderer<'modal'> = (n, key, ctx) => (
  <section key={key} class={`ck-modal ck-modal-${n.size ?? 'medium'}`} aria-label={n.title ?? 'Dialog'}>
    {n.title ? <h2 class="ck-modal-title">{n.title}</h2> : null}
    {n.subtitle ? <p class="muted">{n.subtitle}</p> : null}
    {ctx.all(n.children)}
    {n.submit ? <Button node={n.submit} busy={ctx.busy} press={ctx.press} /> : null}
  </section>
);

/** `box`. @example box({ type: 'box', children: [] }, 0, ctx) */
export const box: Renderer<'box'> = (n, key, ctx) => (
  <div key={key} class="ck-box" style={n.grow ? { flexGrow: n.grow } : undefined}>
    {ctx.all(n.children)}
  </div>
);

const stack = (n: ElementOf<'vstack' | 'hstack'>, key: number, ctx: DrawContext) => (
  <div key={key} class={`ck-${n.type} ck-align-${n.align ?? 'start'} ck-gap-${n.gap ?? 'medium'}`}>
    {ctx.all(n.children)}
  </div>
);
/** `vstack`. @example vstack({ type: 'vstack', children: [] }, 0, ctx) */
export const vstack: Renderer<'vstack'> = stack;
/** `hstack`. @example hstack({ type: 'hstack', children: [] }, 0, ctx) */
export const hstack: Renderer<'hstack'> = stack;

/** `card`: header (icon, title, hint, buttons) and body. @example card({ type: 'card', title: 'T', children: [] }, 0, ctx) */
export const card: Renderer<'card'> = (n, key, ctx) => {
  const icon =
    typeof n.icon === 'string' ? (
      <span class={`ck-icon ck-icon-${n.icon}`} aria-hidden="true" />
    ) : n.icon && 'type' in n.icon ? (
      <img class="ck-card-icon" src={n.icon.source.url} alt="" />
    ) : n.icon ? (
      <img class="ck-card-icon" src={n.icon.url} alt="" />
    ) : null;
  const onPress = n.onPress;
  return (
    <article key={key} class="ck-card" aria-label={n.title ?? 'Card'}>
      <header class="ck-card-head">
        {icon}
        {onPress ? (
          <button
            type="button"
            class="ck-card-title linklike"
            disabled={ctx.busy}
            onClick={() => ctx.press(onPress)}
          >
            {n.title}
          </button>
        ) : (
          <span class="ck-card-title">{n.title}</span>
        )}
        {n.hint ? <span class="muted ck-card-hint">{n.hint}</span> : null}
        {n.buttons?.map((b, i) => (
          <Button key={i} node={b} busy={ctx.busy} press={ctx.press} />
        ))}
      </header>
      {n.children.length ? <div class="ck-card-body">{ctx.all(n.children)}</div> : null}
    </article>
  );
};

/** `divider`. @example divider({ type: 'divider' }, 0, ctx) */
export const divider: Renderer<'divider'> = (n, key) => (
  <hr key={key} class={`ck-divider ck-divider-${n.size ?? 'medium'}`} />
);

/**
 * The renderers of this file by element `type` ({@link RENDERERS} joins the files' maps). A new element
 * drawn here: its renderer above and its entry in this map.
 * @example layoutRenderers.block
 */
export const layoutRenderers = {
  block,
  box,
  card,
  configuration,
  divider,
  hstack,
  modal,
  vstack,
} satisfies Partial<Renderers>;
