import {
  CONTENTKIT_JSX,
  type ContentKitBlockControl,
  type ContentKitElement,
  type ContentKitElementType,
  type ContentKitInline,
  type ContentKitInputField,
  type ContentKitJsxName,
  type ContentKitLink,
  type ContentKitTextFieldInput,
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
  /** `<button>`s, or their attributes without `type` (`{ label, icon, onPress }`). */
  controls?: Array<ContentKitElement | ContentKitBlockControl>;
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

/** How JSX builds each element (container, inline runs or leaf), from the element declarations. */
type JsxKinds = typeof CONTENTKIT_JSX;
/** The attributes of an element, from its kind (elements with a shape of their own are in `Special`). */
type ByKind<T extends ContentKitElementType> = JsxKinds[T] extends 'container'
  ? Container<T>
  : JsxKinds[T] extends 'inline'
    ? Attributes<T> & { children?: TextChild }
    : Leaf<T>;
/** Elements whose JSX attributes differ from what their kind gives. */
interface Special {
  card: Omit<Container<'card'>, 'icon'> & { icon?: Attributes<'card'>['icon'] | ContentKitElement };
  link: { target: ContentKitLink['target']; children?: string | number | readonly (string | number)[] };
  input: InputAttributes;
}
type Derived = { [T in Exclude<ContentKitJsxName, keyof Special> & ContentKitElementType]: ByKind<T> };

export namespace JSX {
  /** `<link>` also evaluates to this type (TypeScript gives every JSX expression one type). */
  export type Element = ContentKitElement;
  export interface ElementChildrenAttribute {
    children: unknown;
  }
  /**
   * Attributes of every element, derived from the ContentKit types and the element declarations'
   * JSX names: a wrong attribute or tag is a compile error.
   */
  export interface IntrinsicElements extends Derived, Special {}
}

type IntrinsicName = keyof JSX.IntrinsicElements;
const isName = (type: string): type is ContentKitJsxName => Object.hasOwn(CONTENTKIT_JSX, type);

/** The elements {@link Fragment} made: a container takes their children in their place. */
const FRAGMENTS = new WeakSet<object>();

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
  if (typeof children === 'object' && FRAGMENTS.has(children)) {
    return flattenElements((children as { children?: unknown }).children, parent, out);
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
  if (!isName(type)) throw new TypeError(`<${String(type)}> is not a ContentKit element`);
  const { children, ...attributes } = props;
  const kind = CONTENTKIT_JSX[type];
  if (kind === 'container')
    return { type, ...attributes, children: flattenElements(children, type) } as ContentKitElement;
  if (type === 'text') {
    const runs = flattenInline(children, type);
    const only = runs.length === 0 ? '' : runs.length === 1 ? runs[0] : undefined;
    return (
      typeof only === 'string' ? { type, ...attributes, text: only } : { type, ...attributes, children: runs }
    ) as ContentKitElement;
  }
  if (type === 'link') {
    const text = flattenInline(children, type).filter((c): c is string => typeof c === 'string');
    return { type, ...attributes, children: text } as unknown as ContentKitElement;
  }
  if (kind === 'inline')
    return { type, ...attributes, children: flattenInline(children, type) } as ContentKitElement;
  return { type, ...attributes } as ContentKitElement;
}

/** Same as {@link jsx} (static children). @example jsxs('block', { children: [] }); */
export const jsxs = jsx;

/**
 * A fragment (`<>…</>`): inside a container its children take its place, as if written there; anywhere
 * else (a render's root, an input's `element`) it is a `<vstack>` of them, since ContentKit has no
 * fragment element (docs/contentkit.md, "Fragments").
 *
 * @example <block><>{a}{b}</></block> // { type: 'block', children: [a, b] }
 */
export function Fragment(props: { children?: ContentKitChild }): ContentKitElement {
  const fragment = {
    type: 'vstack',
    children: flattenElements(props.children, 'fragment'),
  } as ContentKitElement;
  FRAGMENTS.add(fragment);
  return fragment;
}
