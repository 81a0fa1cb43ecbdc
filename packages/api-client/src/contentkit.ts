import type { ComponentAction } from './events';

/**
 * ContentKit: the JSON UI a component's `render` returns. The set is small on
 * purpose (SPEC 2.2 only names `block` and `button`):
 *
 * | type | attributes | children |
 * |---|---|---|
 * | `block` | — | elements: the top-level container of a component |
 * | `vstack` / `hstack` | `align?` | elements, stacked vertically / horizontally |
 * | `text` | `style?` (`default`/`bold`/`italic`/`code`) | the text (`text` field) |
 * | `button` | `label`, `onPress`, `style?` (`primary`/`secondary`/`danger`), `disabled?` | — |
 * | `divider` | — | — |
 * | `input` | `id`, `label?`, `placeholder?`, `initialValue?` | — (the value reaches the action as `action.inputs[id]`) |
 *
 * @example
 * const ui: ContentKitElement = {
 *   type: 'block',
 *   children: [{ type: 'button', label: 'Go', onPress: { action: 'go' } }],
 * };
 */
export type ContentKitElement =
  | ContentKitBlock
  | ContentKitStack
  | ContentKitText
  | ContentKitButton
  | ContentKitDivider
  | ContentKitInput;

/** The top-level container. @example const b: ContentKitBlock = { type: 'block', children: [] }; */
export interface ContentKitBlock {
  type: 'block';
  /** Elements inside the block, in order. */
  children: ContentKitElement[];
}

/** A vertical or horizontal stack. @example const s: ContentKitStack = { type: 'hstack', children: [] }; */
export interface ContentKitStack {
  type: 'vstack' | 'hstack';
  /** Cross-axis alignment; `start` by default. */
  align?: 'start' | 'center' | 'end';
  /** Elements inside the stack. */
  children: ContentKitElement[];
}

/** A run of text. @example const t: ContentKitText = { type: 'text', text: 'Hi', style: 'bold' }; */
export interface ContentKitText {
  type: 'text';
  /** The text shown (plain text, never interpreted as HTML). */
  text: string;
  /** Emphasis; `default` when absent. */
  style?: 'default' | 'bold' | 'italic' | 'code';
}

/**
 * A button; pressing it dispatches `onPress` to the component's `action` handler.
 * @example const b: ContentKitButton = { type: 'button', label: '+1', onPress: { action: 'increment' } };
 */
export interface ContentKitButton {
  type: 'button';
  /** Text on the button. */
  label: string;
  /** The action dispatched when pressed: `action` names it, other keys are payload. */
  onPress: ComponentAction;
  /** Visual weight; `secondary` when absent. */
  style?: 'primary' | 'secondary' | 'danger';
  /** When true the button cannot be pressed. */
  disabled?: boolean;
}

/** A horizontal rule. @example const d: ContentKitDivider = { type: 'divider' }; */
export interface ContentKitDivider {
  type: 'divider';
}

/**
 * A one-line text input; its current value is sent with the next action as
 * `action.inputs[id]`.
 * @example const i: ContentKitInput = { type: 'input', id: 'name', label: 'Your name' };
 */
export interface ContentKitInput {
  type: 'input';
  /** Key of the value in `action.inputs`. */
  id: string;
  /** Label shown above the input. */
  label?: string;
  /** Placeholder shown while empty. */
  placeholder?: string;
  /** Value shown on first render. */
  initialValue?: string;
}
