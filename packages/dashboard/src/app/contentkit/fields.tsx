/** @jsxImportSource preact */
import type { ContentKitSelect } from '@platform/api-client';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

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
 * `select`: static options, or options completed from a URL; inside a labelled `input` field the
 * field's label names it.
 *
 * @example <Select node={{ type: 'select', state: 'b', options: [] }} value="" set={console.log} />
 */
export function Select({
  node,
  value,
  set,
  field,
}: {
  node: ContentKitSelect;
  value: unknown;
  set(v: unknown): void;
  field?: Field;
}) {
  const [remote, setRemote] = useState<Array<{ id: string; label: string }>>([]);
  const id = field?.controlId ?? `ck-select-${node.state}`;
  const bind = fieldAttributes(field, node.label ?? node.state);
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
  if (!Array.isArray(node.options)) {
    const url = node.options.url;
    const complete = async (q: string) => {
      try {
        const response = await fetch(`${url}${url.includes('?') ? '&' : '?'}q=${encodeURIComponent(q)}`);
        const list = (await response.json()) as Array<{ id: string; label: string }>;
        setRemote(Array.isArray(list) ? list : []);
      } catch {
        setRemote([]);
      }
    };
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
            set(v);
            void complete(v);
          }}
        />
        <datalist id={`${id}-options`}>
          {remote.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </datalist>
      </>,
    );
  }
  return labelled(
    <select
      id={id}
      {...bind}
      multiple={node.multiple}
      value={node.multiple ? undefined : typeof value === 'string' ? value : ''}
      onChange={(e) => {
        const el = e.currentTarget as HTMLSelectElement;
        set(node.multiple ? [...el.selectedOptions].map((o) => o.value) : el.value);
      }}
    >
      {!node.multiple ? <option value="">{node.placeholder ?? 'Choose…'}</option> : null}
      {node.options.map((o) => (
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
