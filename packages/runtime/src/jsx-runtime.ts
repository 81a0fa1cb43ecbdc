import type {
  ContentKitElement,
  ContentKitElementType,
  ContentKitInline,
  ContentKitInputField,
  ContentKitLink,
  ContentKitTextFieldInput,
} from '@platform/api-client';

/** What may appear between container tags (`block`, `configuration`, `box`, `vstack`, `hstack`, `card`, `modal`). */
export type ContentKitChild = ContentKitElement | null | undefined | false | readonly ContentKitChild[];
/** What may appear between `<text>`/`<hint>` tags: strings, numbers, `<text>` spans and `<link>`s. */
export type TextChild =
  | string
  | number
  | null
  | undefined
  | false
  | ContentKitInline
  | JSX.Element
  | readonly TextChild[];

/** A function component: returns ContentKit from its props. */
export type FunctionComponent<P> = (props: P) => ContentKitElement;

type Attributes<T extends ContentKitElementType> = Omit<
  Extract<ContentKitElement, { type: T }>,
  'type' | 'children' | 'text'
>;
/**
 * Attributes that hold elements (`footer={[<webframe />]}`, `buttons={[<button />]}`): TypeScript
 * gives every JSX expression the one type `JSX.Element`, so they accept any element here and the
 * host's validation checks the kind (docs/contentkit.md).
 */
type ElementSlots = {
  header?: ContentKitElement[];
  footer?: ContentKitElement[];
  buttons?: ContentKitElement[];
  controls?: ContentKitElement[];
  submit?: ContentKitElement;
};
type WithSlots<T> = Omit<T, keyof ElementSlots> & Pick<ElementSlots, Extract<keyof T, keyof ElementSlots>>;
/**
 * `<input>`: with `element` a labelled field (`label`, `hint`, one form control), else the
 * one-line text input with `id`. `element={<textinput state="x" />}` has the type every JSX
 * expression has (`JSX.Element`), so the attribute takes an element and the host checks it is a form
 * control (`textinput`, `select`, `switch`, `checkbox`, `radio`, `button`, `codeblock`); built
 * as an object (`ContentKitInputField`) it is typed as one. `hint` also takes `<text>`/`<link>`.
 */
type InputAttributes =
  | (Omit<ContentKitTextFieldInput, 'type'> & { element?: never; hint?: never; children?: never })
  | (Omit<ContentKitInputField, 'type' | 'element' | 'hint'> & {
      element: ContentKitInputField['element'] | ContentKitElement;
      hint?: ContentKitInputField['hint'] | ContentKitElement;
      children?: never;
    });
type Container<T extends ContentKitElementType> = WithSlots<Attributes<T>> & { children?: ContentKitChild };
type Leaf<T extends ContentKitElementType> = WithSlots<Attributes<T>> & { children?: never };

export namespace JSX {
  /** `<link>` also evaluates to this type (TypeScript gives every JSX expression one type). */
  export type Element = ContentKitElement;
  export interface ElementChildrenAttribute {
    children: unknown;
  }
  /** Attributes of every element, derived from the ContentKit types: a wrong attribute is a compile error. */
  export interface IntrinsicElements {
    block: Container<'block'>;
    configuration: Container<'configuration'>;
    modal: Container<'modal'>;
    box: Container<'box'>;
    vstack: Container<'vstack'>;
    hstack: Container<'hstack'>;
    card: Omit<Container<'card'>, 'icon'> & { icon?: Attributes<'card'>['icon'] | ContentKitElement };
    text: Attributes<'text'> & { children?: TextChild };
    hint: Attributes<'hint'> & { children?: TextChild };
    link: { target: ContentKitLink['target']; children?: string | number | readonly (string | number)[] };
    markdown: Leaf<'markdown'>;
    divider: Leaf<'divider'>;
    input: InputAttributes;
    textinput: Leaf<'textinput'>;
    select: Leaf<'select'>;
    switch: Leaf<'switch'>;
    checkbox: Leaf<'checkbox'>;
    radio: Leaf<'radio'>;
    button: Leaf<'button'>;
    image: Leaf<'image'>;
    codeblock: Leaf<'codeblock'>;
    webframe: Leaf<'webframe'>;
  }
}

type IntrinsicName = keyof JSX.IntrinsicElements;
const CONTAINER_NAMES: IntrinsicName[] = [
  'block',
  'configuration',
  'modal',
  'box',
  'vstack',
  'hstack',
  'card',
];
const CONTAINERS = new Set<string>(CONTAINER_NAMES);
const KNOWN = new Set<string>([
  ...CONTAINER_NAMES,
  'text',
  'hint',
  'link',
  'markdown',
  'divider',
  'input',
  'textinput',
  'select',
  'switch',
  'checkbox',
  'radio',
  'button',
  'image',
  'codeblock',
  'webframe',
] satisfies IntrinsicName[]);

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

/** Inline runs of `<text>`/`<hint>`: adjacent strings and numbers merged into one string. */
function flattenInline(children: unknown, parent: string, out: ContentKitInline[] = []): ContentKitInline[] {
  if (children === null || children === undefined || children === false || children === true) return out;
  if (Array.isArray(children)) {
    for (const child of children) flattenInline(child, parent, out);
    return out;
  }
  if (typeof children === 'string' || typeof children === 'number') {
    const last = out.length - 1;
    if (typeof out[last] === 'string') out[last] = `${out[last]}${children}`;
    else out.push(String(children));
    return out;
  }
  const type = typeof children === 'object' ? (children as { type?: unknown }).type : undefined;
  if (type === 'text' || type === 'link') {
    out.push(children as ContentKitInline);
    return out;
  }
  throw new TypeError(`<${parent}> children must be strings, numbers, <text> or <link>`);
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
  if (type === 'text') {
    const runs = flattenInline(children, type);
    const only = runs.length === 0 ? '' : runs.length === 1 ? runs[0] : undefined;
    return (
      typeof only === 'string' ? { type, ...attributes, text: only } : { type, ...attributes, children: runs }
    ) as ContentKitElement;
  }
  if (type === 'hint')
    return { type, ...attributes, children: flattenInline(children, type) } as ContentKitElement;
  if (type === 'link') {
    const text = flattenInline(children, type).filter((c): c is string => typeof c === 'string');
    return { type, ...attributes, children: text } as unknown as ContentKitElement;
  }
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
