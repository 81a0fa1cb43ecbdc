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
  // By the file that draws them (./button, ./inputs, ./layout, ./media, ./text).
  button,
  checkbox,
  input,
  radio,
  select,
  switch: switchRenderer,
  textinput,
  block,
  box,
  card,
  configuration,
  divider,
  hstack,
  modal,
  vstack,
  codeblock,
  image,
  webframe,
  hint,
  markdown,
  text,
};
