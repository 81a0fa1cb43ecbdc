/** @jsxImportSource preact */
import type { ContentKitSelect } from '@platform/api-client';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { resolveUrl, type State } from './bindings';

/**
 * The control of a labelled `input` field: its id (the field's `<label for>` names it), the id of
 * the label (when not empty) and of the hint (its description).
 */
export interface Field {
  controlId: string;
  labelId?: string;
  hintId?: string;
}
/** Controls a `<label for>` can name; other field elements (button, codeblock) are named otherwise. */
export const LABELABLE = new Set(['textinput', 'select', 'switch', 'checkbox', 'radio']);

/** Attributes binding a labelable control to its field: `name` names it when the field label is empty. */
export const fieldAttributes = (field: Field | undefined, name: string) =>
  field
    ? {
        id: field.controlId,
        'aria-describedby': field.hintId,
        'aria-label': field.labelId ? undefined : name,
      }
    : {};

/**
 * `select`: static options, or options completed from a URL (an http(s) URL, or `{ host, pathname,
 * query }` resolved against the state); with `acceptInput` static options are suggestions and any
 * typed value is kept. Inside a labelled `input` field the field's label names it. `set` receives
 * every change; `committed` is false while the user is still typing (dispatch on commit only).
 *
 * @example <Select node={{ type: 'select', state: 'b', options: [] }} value="" state={{}} set={console.log} />
 */
export function Select({
  node,
  value,
  state,
  set,
  field,
}: {
  node: ContentKitSelect;
  value: unknown;
  state: State;
  set(v: unknown, committed: boolean): void;
  field?: Field;
}) {
  const [remote, setRemote] = useState<Array<{ id: string; label: string }>>([]);
  const id = field?.controlId ?? `ck-select-${node.state}`;
  const bind = { ...fieldAttributes(field, node.label ?? node.state), disabled: node.disabled === true };
  // Inside a field, the field's label names the control: no label of its own.
  const labelled = (control: ComponentChildren) =>
    field ? (
      control
    ) : (
      <label class="ck-field" for={id}>
        <span class="ck-field-label">{node.label ?? node.state}</span>
        {control}
      </label>
    );
  const remoteUrl = Array.isArray(node.options) ? undefined : resolveUrl(node.options.url, state);
  if (remoteUrl !== undefined || node.acceptInput) {
    const complete = async (q: string) => {
      if (remoteUrl === undefined) return;
      try {
        const target = new URL(remoteUrl);
        target.searchParams.set('q', q);
        const response = await fetch(target.href);
        const list = (await response.json()) as Array<{ id: string; label: string }>;
        setRemote(Array.isArray(list) ? list : []);
      } catch {
        setRemote([]);
      }
    };
    const suggestions = Array.isArray(node.options) ? node.options : remote;
    return labelled(
      <>
        <input
          id={id}
          {...bind}
          list={`${id}-options`}
          placeholder={node.placeholder}
          value={typeof value === 'string' ? value : ''}
          onFocus={(e) => void complete((e.currentTarget as HTMLInputElement).value)}
          onInput={(e) => {
            const v = (e.currentTarget as HTMLInputElement).value;
            set(v, false);
            void complete(v);
          }}
          onChange={(e) => set((e.currentTarget as HTMLInputElement).value, true)}
        />
        <datalist id={`${id}-options`}>
          {suggestions.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </datalist>
      </>,
    );
  }
  const options = Array.isArray(node.options) ? node.options : [];
  return labelled(
    <select
      id={id}
      {...bind}
      multiple={node.multiple}
      value={node.multiple ? undefined : typeof value === 'string' ? value : ''}
      onChange={(e) => {
        const el = e.currentTarget as HTMLSelectElement;
        set(node.multiple ? [...el.selectedOptions].map((o) => o.value) : el.value, true);
      }}
    >
      {!node.multiple ? <option value="">{node.placeholder ?? 'Choose…'}</option> : null}
      {options.map((o) => (
        <option
          key={o.id}
          value={o.id}
          selected={node.multiple && Array.isArray(value) ? value.includes(o.id) : undefined}
        >
          {o.label}
        </option>
      ))}
    </select>,
  );
}
