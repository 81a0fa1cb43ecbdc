import { buttonRenderers } from './button';
import { inputRenderers } from './inputs';
import { layoutRenderers } from './layout';
import { mediaRenderers } from './media';
import { textRenderers } from './text';
import type { Renderers } from './types';

export type { DrawContext, ElementOf, Renderer, Renderers } from './types';

/**
 * The renderer of every ContentKit element, by `type`: the maps of the files that draw them (./button,
 * ./inputs, ./layout, ./media, ./text). Typed {@link Renderers}: an element declared in
 * @platform/api-client without a renderer in one of these maps does not compile. A new element's renderer
 * is a function and its map entry in one of these files (a new file: one more map here).
 *
 * @example RENDERERS.divider({ type: 'divider' }, 0, ctx)
 */
export const RENDERERS: Renderers = {
  ...buttonRenderers,
  ...inputRenderers,
  ...layoutRenderers,
  ...mediaRenderers,
  ...textRenderers,
};
