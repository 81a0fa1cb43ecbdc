import { element as block } from './block';
import { element as box } from './box';
import { element as button } from './button';
import { element as card } from './card';
import { element as checkbox } from './checkbox';
import { element as codeblock } from './codeblock';
import { element as configuration } from './configuration';
import { element as divider } from './divider';
import { element as hint } from './hint';
import { element as hstack } from './hstack';
import { element as image } from './image';
import { element as input } from './input';
import { element as link } from './link';
import { element as markdown } from './markdown';
import { element as modal } from './modal';
import { element as radio } from './radio';
import { element as select } from './select';
import { element as switchElement } from './switch';
import { element as text } from './text';
import { element as textinput } from './textinput';
import { element as vstack } from './vstack';
import { element as webframe } from './webframe';

/*
 * Every ContentKit element, one file each (./<type>.ts). The order is the order of validation
 * messages ("expected one of ...") and, within a docs group, of docs/contentkit.md. A new element:
 * its file here, one line in this list, and its renderer in the dashboard
 * (packages/dashboard/src/app/contentkit/renderers/); then `npm run gen:contentkit`.
 */

/**
 * The element declarations, roots first.
 * @example ELEMENTS.map((e) => e.type); // ['block', 'modal', ...]
 */
export const ELEMENTS = [
  block,
  modal,
  configuration,
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
  switchElement,
  checkbox,
  radio,
  button,
  codeblock,
  image,
  webframe,
  link,
] as const;
