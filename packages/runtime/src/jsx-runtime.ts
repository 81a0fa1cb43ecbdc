import type {
  ComponentAction,
  ContentKitElement,
  ContentKitStack,
  ContentKitText,
} from '@platform/api-client';

/** What may appear between container tags (`block`, `vstack`, `hstack`). */
export type ContentKitChild = ContentKitElement | null | undefined | false | readonly ContentKitChild[];
/** What may appear between `<text>` tags. */
export type TextChild = string | number | readonly TextChild[];

/** A function component: returns ContentKit from its props. */
export type FunctionComponent<P> = (props: P) => ContentKitElement;

export namespace JSX {
  export type Element = ContentKitElement;
  export interface ElementChildrenAttribute {
    children: unknown;
  }
  export interface IntrinsicElements {
    block: { children?: ContentKitChild };
    vstack: { align?: ContentKitStack['align']; children?: ContentKitChild };
    hstack: { align?: ContentKitStack['align']; children?: ContentKitChild };
    text: { style?: ContentKitText['style']; children?: TextChild };
    button: {
      label: string;
      onPress: ComponentAction;
      style?: 'primary' | 'secondary' | 'danger';
      disabled?: boolean;
    };
    divider: Record<string, never>;
    input: { id: string; label?: string; placeholder?: string; initialValue?: string };
  }
}

type IntrinsicName = keyof JSX.IntrinsicElements;
const CONTAINERS = new Set<string>(['block', 'vstack', 'hstack']);
const KNOWN = new Set<string>(['block', 'vstack', 'hstack', 'text', 'button', 'divider', 'input']);

function flattenElements(
  children: unknown,
  parent: string,
  out: ContentKitElement[] = [],
): ContentKitElement[] {
  if (children === null || children === undefined || children === false || children === true) return out;
  if (Array.isArray(children)) {
    for (const child of children) flattenElements(child, parent, out);
    return out;
  }
  if (typeof children === 'object' && typeof (children as { type?: unknown }).type === 'string') {
    out.push(children as ContentKitElement);
    return out;
  }
  throw new TypeError(`<${parent}> children must be ContentKit elements; wrap text in <text>…</text>`);
}

function flattenText(children: unknown): string {
  if (children === null || children === undefined || children === false) return '';
  if (Array.isArray(children)) return children.map(flattenText).join('');
  if (typeof children === 'string' || typeof children === 'number') return String(children);
  throw new TypeError('<text> children must be strings or numbers');
}

/**
 * The automatic JSX factory (`"jsxImportSource": "@platform/runtime"`): turns
 * `<button label="Go" onPress={{ action: 'go' }} />` into ContentKit JSON.
 *
 * @example jsx('button', { label: 'Go', onPress: { action: 'go' } }); // { type: 'button', ... }
 */
export function jsx(
  type: IntrinsicName | FunctionComponent<never>,
  props: Record<string, unknown>,
): ContentKitElement {
  if (typeof type === 'function') return (type as FunctionComponent<Record<string, unknown>>)(props);
  if (!KNOWN.has(type)) throw new TypeError(`<${String(type)}> is not a ContentKit element`);
  const { children, ...attributes } = props;
  if (CONTAINERS.has(type))
    return { type, ...attributes, children: flattenElements(children, type) } as ContentKitElement;
  if (type === 'text') return { type, ...attributes, text: flattenText(children) } as ContentKitElement;
  return { type, ...attributes } as ContentKitElement;
}

/** Same as {@link jsx} (static children). @example jsxs('block', { children: [] }); */
export const jsxs = jsx;

/**
 * Fragments have no ContentKit equivalent: use `<vstack>` or `<block>` instead.
 * @example <vstack>...</vstack> // instead of <>...</>
 */
export function Fragment(_props: { children?: ContentKitChild }): ContentKitElement {
  throw new TypeError(
    'Fragments (<>…</>) are not ContentKit elements; wrap the children in <vstack> or <block>',
  );
}
