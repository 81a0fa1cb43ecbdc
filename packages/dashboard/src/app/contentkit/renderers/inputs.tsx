/** @jsxImportSource preact */
import { type Field, fieldAttributes, LABELABLE, Select } from '../fields';
import { Inline } from './text';
import type { DrawContext, ElementOf, Renderer, Renderers } from './types';

/**
 * `input`: with `element`, a labelled field (the label names the control, the hint describes it);
 * else the legacy one-line input whose value is sent as `action.inputs[id]`.
 * @example input({ type: 'input', label: 'Token', element: { type: 'textinput', state: 't' } }, 0, ctx)
 */
export const input: Renderer<'input'> = (n, key, ctx) => {
  if ('element' in n) {
    const base = ctx.fieldId();
    const labelable = LABELABLE.has(n.element.type);
    const own: Field = {
      controlId: `${base}-control`,
      labelId: n.label ? `${base}-label` : undefined,
      hintId: n.hint ? `${base}-hint` : undefined,
    };
    return (
      <div key={key} class="ck-field ck-input-field">
        {!own.labelId ? null : labelable ? (
          <label id={own.labelId} for={own.controlId} class="ck-field-label">
            {n.label}
          </label>
        ) : (
          <span id={own.labelId} class="ck-field-label">
            {n.label}
          </span>
        )}
        {n.hint ? (
          <span id={own.hintId} class="ck-field-hint muted">
            <Inline runs={[n.hint]} />
          </span>
        ) : null}
        {ctx.draw(n.element, 0, own)}
      </div>
    );
  }
  const id = `ck-input-${n.id}`;
  if (!(n.id in ctx.inputs)) ctx.inputs[n.id] = n.initialValue ?? '';
  return (
    <label key={key} class="ck-input ck-field" for={id}>
      {n.label ? <span class="ck-field-label">{n.label}</span> : null}
      <input
        id={id}
        type="text"
        placeholder={n.placeholder}
        defaultValue={n.initialValue ?? ''}
        onInput={(e) => {
          ctx.inputs[n.id] = (e.currentTarget as HTMLInputElement).value;
        }}
      />
    </label>
  );
};

/** `textinput`, bound to its state key. @example textinput({ type: 'textinput', state: 'title' }, 0, ctx) */
export const textinput: Renderer<'textinput'> = (n, key, ctx, field) => {
  const id = field?.controlId ?? `ck-textinput-${n.state}`;
  const value = String(ctx.bound(n.state, n.initialValue ?? '') ?? '');
  const change = (e: Event) => ctx.set(n.state)((e.currentTarget as HTMLInputElement).value);
  const bind = fieldAttributes(field, n.label ?? n.state);
  const control = n.multiline ? (
    <textarea
      key={key}
      id={id}
      {...bind}
      disabled={n.disabled === true}
      placeholder={n.placeholder}
      value={value}
      onInput={change}
    />
  ) : (
    <input
      key={key}
      id={id}
      {...bind}
      disabled={n.disabled === true}
      type={n.inputType ?? 'text'}
      placeholder={n.placeholder}
      value={value}
      onInput={change}
    />
  );
  if (field) return control;
  return (
    <label key={key} class="ck-field" for={id}>
      <span class="ck-field-label">{n.label ?? n.state}</span>
      {control}
    </label>
  );
};

/** `select`: static options or options completed from a URL. @example select({ type: 'select', state: 'b', options: [] }, 0, ctx) */
export const select: Renderer<'select'> = (n, key, ctx, field) => (
  <Select
    key={key}
    node={n}
    value={ctx.bound(n.state, n.initialValue)}
    state={ctx.state}
    set={(value, committed) => ctx.change(n.state, value, committed ? n.onValueChange : undefined)}
    field={field}
  />
);

const toggle = (n: ElementOf<'switch' | 'checkbox'>, key: number, ctx: DrawContext, field?: Field) => {
  const checked = ctx.bound(n.state, n.initialValue ?? false) === true;
  return (
    <label key={key} class={`ck-toggle ck-${n.type}`}>
      <input
        {...fieldAttributes(field, n.label ?? n.state)}
        type="checkbox"
        role={n.type === 'switch' ? 'switch' : undefined}
        disabled={n.disabled === true}
        checked={checked}
        onChange={(e) => {
          const next = (e.currentTarget as HTMLInputElement).checked;
          if (n.confirm && !window.confirm(`${n.confirm.title}\n${n.confirm.text}`)) {
            (e.currentTarget as HTMLInputElement).checked = !next;
            return;
          }
          ctx.change(n.state, next, n.onValueChange);
        }}
      />
      {field && !n.label ? null : <span>{n.label ?? n.state}</span>}
    </label>
  );
};
/** `switch` (a checkbox with the switch role). @example switchRenderer({ type: 'switch', state: 'on' }, 0, ctx) */
export const switchRenderer: Renderer<'switch'> = toggle;
/** `checkbox`. @example checkbox({ type: 'checkbox', state: 'agree' }, 0, ctx) */
export const checkbox: Renderer<'checkbox'> = toggle;

/** `radio`: one choice of the group sharing its state key. @example radio({ type: 'radio', state: 's', value: 'a' }, 0, ctx) */
export const radio: Renderer<'radio'> = (n, key, ctx, field) => (
  <label key={key} class="ck-toggle ck-radio">
    <input
      {...fieldAttributes(field, n.label ?? n.value)}
      type="radio"
      name={`ck-radio-${n.state}`}
      value={n.value}
      disabled={n.disabled === true}
      checked={ctx.bound(n.state, n.initialValue) === n.value}
      onChange={() => ctx.change(n.state, n.value, n.onValueChange)}
    />
    {field && !n.label ? null : <span>{n.label ?? n.value}</span>}
  </label>
);

/**
 * The renderers of this file by element `type` ({@link RENDERERS} joins the files' maps). A new element
 * drawn here: its renderer above and its entry in this map.
 * @example inputRenderers.checkbox
 */
export const inputRenderers = {
  checkbox,
  input,
  radio,
  select,
  switch: switchRenderer,
  textinput,
} satisfies Partial<Renderers>;
