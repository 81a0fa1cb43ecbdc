/** @jsxImportSource preact */
import type { ComponentAction, ContentKitElement, ContentKitElementType } from '@platform/api-client';
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { resolveAction, type State } from './bindings';
import type { Field } from './fields';
import { type DrawContext, RENDERERS, type Renderer } from './renderers';

/** Props of {@link ContentKitView}. */
export interface ContentKitViewProps {
  element: ContentKitElement;
  /** Called with an action (bindings resolved; `inputs`: the values of legacy `input`s). */
  onAction(action: ComponentAction): void;
  /** The component state; inputs bound with `state="key"` read it. */
  state?: State;
  /** Called when a bound input changes (no round trip). */
  onState?(key: string, value: unknown): void;
  /** While true, buttons are disabled (an action is being handled). */
  busy?: boolean;
}

const isKnown = (type: unknown): type is ContentKitElementType =>
  typeof type === 'string' && Object.hasOwn(RENDERERS, type);

/**
 * Draws a ContentKit tree (docs/contentkit.md: every element) as accessible HTML: native
 * buttons and form controls (keyboard operable), labelled inputs, text always as text, Markdown
 * sanitized, webframes sandboxed. Each element is drawn by its renderer (./renderers/); a type
 * none declares (data the host did not validate) is shown as a short notice.
 *
 * @example <ContentKitView element={rendered.element} state={state} onState={set} onAction={dispatch} />
 */
export function ContentKitView({
  element,
  onAction,
  state = {},
  onState,
  busy = false,
}: ContentKitViewProps) {
  const [inputs] = useState<Record<string, string>>({});
  const uid = useId();
  // Actions waiting for the state they read (`onValueChange`), dispatched once it is drawn. Each is
  // resolved with the value its change committed laid over the drawn state, so it reads that value
  // even when a render that predates the change runs this effect first.
  const pending = useRef<Array<{ action: ComponentAction; key: string; value: unknown }>>([]);
  useEffect(() => {
    const queued = pending.current.splice(0);
    for (const { action, key, value } of queued) {
      onAction({ ...resolveAction(action, { ...state, [key]: value }), inputs: { ...inputs } });
    }
  });
  let fields = 0;
  const ctx: DrawContext = {
    busy,
    state,
    inputs,
    press: (action) => onAction({ ...resolveAction(action, state), inputs: { ...inputs } }),
    bound: (key, initial) => (Object.hasOwn(state, key) ? state[key] : initial),
    set: (key) => (value) => onState?.(key, value),
    change: (key, value, then) => {
      if (!onState) {
        if (then) onAction({ ...resolveAction(then, { ...state, [key]: value }), inputs: { ...inputs } });
        return;
      }
      if (then) pending.current.push({ action: then, key, value });
      onState(key, value);
    },
    all: (nodes) => nodes.map((n, i) => draw(n, i)),
    draw: (node, key, field) => draw(node, key, field),
    fieldId: () => `${uid}-field-${fields++}`,
  };

  function draw(node: ContentKitElement, key: number, field?: Field): ComponentChildren {
    const type: unknown = (node as { type?: unknown }).type;
    if (!isKnown(type)) {
      return (
        <span key={key} class="ck-unknown">
          (unsupported element “{String(type)}”)
        </span>
      );
    }
    // The map is keyed by type, so the renderer found is the one for this node's type.
    const render = RENDERERS[type] as Renderer<ContentKitElementType>;
    return render(node as never, key, ctx, field);
  }

  return <div class="contentkit">{draw(element, 0)}</div>;
}
