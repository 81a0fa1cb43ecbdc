import { button } from './button';
import { checkbox, input, radio, select, switchRenderer, textinput } from './inputs';
import { block, box, card, configuration, divider, hstack, modal, vstack } from './layout';
import { codeblock, image, webframe } from './media';
import { hint, markdown, text } from './text';
import type { Renderers } from './types';

export type { DrawContext, ElementOf, Renderer, Renderers } from './types';

/**
 * The renderer of every ContentKit element, by `type`. Typed {@link Renderers}: an element declared
 * in @platform/api-client without a renderer here does not compile. A new element's renderer is a
 * file of this folder and one line here.
 *
 * @example RENDERERS.divider({ type: 'divider' }, 0, ctx)
 */
export const RENDERERS: Renderers = {
  block,
  configuration,
  modal,
  box,
  vstack,
  hstack,
  divider,
  card,
  text,
  markdown,
  hint,
  input,
  textinput,
  select,
  switch: switchRenderer,
  checkbox,
  radio,
  button,
  codeblock,
  image,
  webframe,
};
