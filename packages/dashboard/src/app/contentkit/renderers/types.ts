import type { ComponentAction, ContentKitElement, ContentKitElementType } from '@platform/api-client';
import type { ComponentChildren } from 'preact';
import type { State } from '../bindings';
import type { Field } from '../fields';

/** What a renderer may use of the view drawing it (one per `ContentKitView`). */
export interface DrawContext {
  /** While true, buttons are disabled (an action is being handled). */
  busy: boolean;
  /** The component state (bound inputs read it). */
  state: State;
  /** Dispatches an action (bindings resolved, legacy `input` values added). */
  press(action: ComponentAction): void;
  /** The state's value for `key`, else `initial`. */
  bound(key: string, initial: unknown): unknown;
  /** Sets a state key (no round trip). */
  set(key: string): (value: unknown) => void;
  /**
   * Sets a state key, then dispatches `then` (a control's `onValueChange`) once the new state is
   * drawn, so its `{ $state }` bindings read the new value.
   */
  change(key: string, value: unknown, then?: ComponentAction): void;
  /** Draws child elements. */
  all(nodes: readonly ContentKitElement[]): ComponentChildren;
  /** Draws one element; `field`: the labelled `input` field it is the control of. */
  draw(node: ContentKitElement, key: number, field?: Field): ComponentChildren;
  /** Values of the legacy one-line `input`s, sent as `action.inputs`. */
  inputs: Record<string, string>;
  /** A new id prefix for a labelled field, unique in the view. */
  fieldId(): string;
}

/** The element of type `T`. @example const b: ElementOf<'button'> = { type: 'button', label: 'Go', onPress: { action: 'go' } }; */
export type ElementOf<T extends ContentKitElementType> = Extract<ContentKitElement, { type: T }>;

/**
 * Draws one element of type `T` as accessible HTML.
 * @example const divider: Renderer<'divider'> = (n, key) => <hr key={key} />;
 */
export type Renderer<T extends ContentKitElementType> = (
  node: ElementOf<T>,
  key: number,
  ctx: DrawContext,
  field?: Field,
) => ComponentChildren;

/**
 * A renderer for every element type: the map the view draws with. A declared element without a
 * renderer is a compile error (no fallback branch hides it).
 * @example const r: Renderers = { ...layout, ...text, ...inputs, ...media };
 */
export type Renderers = { [T in ContentKitElementType]: Renderer<T> };
