/** @jsxImportSource preact */
import type { ComponentAction, ContentKitButton } from '@platform/api-client';
import { useState } from 'preact/hooks';
import type { Renderer, Renderers } from './types';

/**
 * A button; with `confirm`, pressing it first asks in an inline alert dialog.
 * @example <Button node={{ type: 'button', label: 'Go', onPress: { action: 'go' } }} busy={false} press={console.log} />
 */
export function Button({
  node,
  busy,
  press,
  describedBy,
}: {
  node: ContentKitButton;
  busy: boolean;
  press(a: ComponentAction): void;
  /** Ids of the field label and hint describing the button inside an `input` field. */
  describedBy?: string;
}) {
  const [asking, setAsking] = useState(false);
  const label = node.label ?? node.tooltip ?? node.icon ?? 'Button';
  return (
    <span class="ck-button">
      <button
        type="button"
        class={`btn btn-${node.style ?? 'secondary'}`}
        disabled={busy || node.disabled === true}
        title={node.tooltip}
        aria-label={node.label ? undefined : label}
        aria-describedby={describedBy}
        onClick={() => (node.confirm ? setAsking(true) : press(node.onPress))}
      >
        {node.icon ? <span class={`ck-icon ck-icon-${node.icon}`} aria-hidden="true" /> : null}
        {node.label}
      </button>
      {asking && node.confirm ? (
        <span role="alertdialog" aria-label={node.confirm.title} class="ck-confirm">
          <strong>{node.confirm.title}</strong> <span>{node.confirm.text}</span>{' '}
          <button
            type="button"
            class={`btn btn-${node.confirm.style ?? 'primary'} btn-small`}
            ref={(el) => el?.focus()}
            onClick={() => {
              setAsking(false);
              press(node.onPress);
            }}
          >
            {node.confirm.confirm}
          </button>{' '}
          <button type="button" class="btn btn-secondary btn-small" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </span>
      ) : null}
    </span>
  );
}

/** `button`; inside a labelled field, the label and hint describe it. @example button(node, 0, ctx) */
export const button: Renderer<'button'> = (n, key, ctx, field) => {
  const describedBy = [field?.labelId, field?.hintId].filter(Boolean).join(' ') || undefined;
  return <Button key={key} node={n} busy={ctx.busy} press={ctx.press} describedBy={describedBy} />;
};

/**
 * The renderers of this file by element `type` ({@link RENDERERS} joins the files' maps). A new element
 * drawn here: its renderer above and its entry in this map.
 * @example buttonRenderers.button
 */
export const buttonRenderers = { button } satisfies Partial<Renderers>;
