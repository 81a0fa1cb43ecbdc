/** @jsxImportSource preact */
import type {
  ComponentAction,
  ContentKitButton,
  ContentKitElement,
  ContentKitInline,
} from '@platform/api-client';
import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { markdownToSafeHtml } from '../markdown';
import { resolveAction, type State } from './bindings';
import { type Field, fieldAttributes, LABELABLE, Select } from './fields';
import { Webframe } from './webframe';

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

type Node = ContentKitElement | { type: string; [key: string]: unknown };

function Inline({ runs }: { runs: ContentKitInline[] }) {
  return (
    <>
      {runs.map((run, i) => {
        if (typeof run === 'string') return run;
        if (run.type === 'link') {
          return (
            <a key={i} href={run.target.url} target="_blank" rel="noopener noreferrer">
              {run.children.join('')}
            </a>
          );
        }
        return <TextRun key={i} style={run.style} text={run.text} runs={run.children} />;
      })}
    </>
  );
}

function TextRun({ style, text, runs }: { style?: string; text?: string; runs?: ContentKitInline[] }) {
  const content = runs ? <Inline runs={runs} /> : text;
  const cls = `ck-text ck-text-${style ?? 'default'}`;
  if (style === 'code') return <code class={cls}>{content}</code>;
  if (style === 'strikethrough') return <s class={cls}>{content}</s>;
  return <span class={cls}>{content}</span>;
}

/** A button; with `confirm`, pressing it first asks in an inline alert dialog. */
function Button({
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

/**
 * Draws a ContentKit tree (docs/contentkit.md: every element) as accessible HTML: native
 * buttons and form controls (keyboard operable), labelled inputs, text always as text, Markdown
 * sanitized, webframes sandboxed. Unknown types are shown as a short notice.
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
  let fields = 0;
  const press = (action: ComponentAction) =>
    onAction({ ...resolveAction(action, state), inputs: { ...inputs } });
  const bound = (key: string, initial: unknown) => (Object.hasOwn(state, key) ? state[key] : initial);
  const set = (key: string) => (value: unknown) => onState?.(key, value);
  const all = (nodes: readonly Node[]) => nodes.map((n, i) => draw(n, i));

  function draw(node: Node, key: number, field?: Field): ComponentChildren {
    const n = node as ContentKitElement;
    switch (n.type) {
      case 'block':
        return (
          <div key={key} class="ck-block">
            {n.controls?.length ? (
              <div class="ck-controls" role="toolbar" aria-label="Block controls">
                {n.controls.map((b, i) => (
                  <Button key={i} node={b} busy={busy} press={press} />
                ))}
              </div>
            ) : null}
            {all(n.children)}
          </div>
        );
      case 'configuration':
        return (
          <div key={key} class="ck-block ck-configuration">
            {all(n.children)}
          </div>
        );
      case 'modal':
        return (
          <section
            key={key}
            class={`ck-modal ck-modal-${n.size ?? 'medium'}`}
            aria-label={n.title ?? 'Dialog'}
          >
            {n.title ? <h2 class="ck-modal-title">{n.title}</h2> : null}
            {n.subtitle ? <p class="muted">{n.subtitle}</p> : null}
            {all(n.children)}
            {n.submit ? <Button node={n.submit} busy={busy} press={press} /> : null}
          </section>
        );
      case 'box':
        return (
          <div key={key} class="ck-box" style={n.grow ? { flexGrow: n.grow } : undefined}>
            {all(n.children)}
          </div>
        );
      case 'vstack':
      case 'hstack':
        return (
          <div key={key} class={`ck-${n.type} ck-align-${n.align ?? 'start'} ck-gap-${n.gap ?? 'medium'}`}>
            {all(n.children)}
          </div>
        );
      case 'card': {
        const icon =
          typeof n.icon === 'string' ? (
            <span class={`ck-icon ck-icon-${n.icon}`} aria-hidden="true" />
          ) : n.icon && 'type' in n.icon ? (
            <img class="ck-card-icon" src={n.icon.source.url} alt="" />
          ) : n.icon ? (
            <img class="ck-card-icon" src={n.icon.url} alt="" />
          ) : null;
        const onPress = n.onPress;
        return (
          <article key={key} class="ck-card" aria-label={n.title ?? 'Card'}>
            <header class="ck-card-head">
              {icon}
              {onPress ? (
                <button
                  type="button"
                  class="ck-card-title linklike"
                  disabled={busy}
                  onClick={() => press(onPress)}
                >
                  {n.title}
                </button>
              ) : (
                <span class="ck-card-title">{n.title}</span>
              )}
              {n.hint ? <span class="muted ck-card-hint">{n.hint}</span> : null}
              {n.buttons?.map((b, i) => (
                <Button key={i} node={b} busy={busy} press={press} />
              ))}
            </header>
            {n.children.length ? <div class="ck-card-body">{all(n.children)}</div> : null}
          </article>
        );
      }
      case 'divider':
        return <hr key={key} class={`ck-divider ck-divider-${n.size ?? 'medium'}`} />;
      case 'text':
        return <TextRun key={key} style={n.style} text={n.text} runs={n.children} />;
      case 'markdown':
        // Sanitized by DOMPurify (no scripts, handlers, styles, forms or frames).
        return (
          <div
            key={key}
            class="ck-markdown"
            dangerouslySetInnerHTML={{ __html: markdownToSafeHtml(n.content) }}
          />
        );
      case 'hint':
        return (
          <p key={key} class={`ck-hint ck-hint-${n.style ?? 'info'}`} role="note">
            <Inline runs={n.children} />
          </p>
        );
      case 'button': {
        const describedBy = [field?.labelId, field?.hintId].filter(Boolean).join(' ') || undefined;
        return <Button key={key} node={n} busy={busy} press={press} describedBy={describedBy} />;
      }
      case 'input': {
        if ('element' in n) {
          // A labelled field: the label names the control, the hint describes it.
          const base = `${uid}-field-${fields++}`;
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
              {draw(n.element, 0, own)}
            </div>
          );
        }
        const id = `ck-input-${n.id}`;
        if (!(n.id in inputs)) inputs[n.id] = n.initialValue ?? '';
        return (
          <label key={key} class="ck-input ck-field" for={id}>
            {n.label ? <span class="ck-field-label">{n.label}</span> : null}
            <input
              id={id}
              type="text"
              placeholder={n.placeholder}
              defaultValue={n.initialValue ?? ''}
              onInput={(e) => {
                inputs[n.id] = (e.currentTarget as HTMLInputElement).value;
              }}
            />
          </label>
        );
      }
      case 'textinput': {
        const id = field?.controlId ?? `ck-textinput-${n.state}`;
        const value = String(bound(n.state, n.initialValue ?? '') ?? '');
        const change = (e: Event) => set(n.state)((e.currentTarget as HTMLInputElement).value);
        const bind = fieldAttributes(field, n.label ?? n.state);
        const control = n.multiline ? (
          <textarea key={key} id={id} {...bind} placeholder={n.placeholder} value={value} onInput={change} />
        ) : (
          <input
            key={key}
            id={id}
            {...bind}
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
      }
      case 'select':
        return (
          <Select
            key={key}
            node={n}
            value={bound(n.state, n.initialValue)}
            set={set(n.state)}
            field={field}
          />
        );
      case 'switch':
      case 'checkbox': {
        const checked = bound(n.state, n.initialValue ?? false) === true;
        return (
          <label key={key} class={`ck-toggle ck-${n.type}`}>
            <input
              {...fieldAttributes(field, n.label ?? n.state)}
              type="checkbox"
              role={n.type === 'switch' ? 'switch' : undefined}
              checked={checked}
              onChange={(e) => {
                const next = (e.currentTarget as HTMLInputElement).checked;
                if (n.confirm && !window.confirm(`${n.confirm.title}\n${n.confirm.text}`)) {
                  (e.currentTarget as HTMLInputElement).checked = !next;
                  return;
                }
                set(n.state)(next);
              }}
            />
            {field && !n.label ? null : <span>{n.label ?? n.state}</span>}
          </label>
        );
      }
      case 'radio':
        return (
          <label key={key} class="ck-toggle ck-radio">
            <input
              {...fieldAttributes(field, n.label ?? n.value)}
              type="radio"
              name={`ck-radio-${n.state}`}
              value={n.value}
              checked={bound(n.state, n.initialValue) === n.value}
              onChange={() => set(n.state)(n.value)}
            />
            {field && !n.label ? null : <span>{n.label ?? n.value}</span>}
          </label>
        );
      case 'image':
        return (
          <img
            key={key}
            class="ck-image"
            src={n.source.url}
            alt={n.alt ?? ''}
            style={n.aspectRatio ? { aspectRatio: String(n.aspectRatio) } : undefined}
          />
        );
      case 'codeblock': {
        const content = typeof n.content === 'string' ? n.content : String(state[n.content.$state] ?? '');
        const editable = n.state !== undefined;
        const value = editable ? String(bound(n.state as string, content) ?? '') : content;
        return (
          <figure
            key={key}
            class="ck-codeblock"
            aria-labelledby={field?.labelId}
            aria-describedby={field?.hintId}
          >
            {n.header ? <div class="ck-codeblock-header">{all(n.header)}</div> : null}
            {editable ? (
              <textarea
                class="ck-code"
                aria-label={`${n.syntax ?? 'code'} (editable)`}
                spellcheck={false}
                value={value}
                onInput={(e) => set(n.state as string)((e.currentTarget as HTMLTextAreaElement).value)}
                onBlur={() => (n.onContentChange ? press(n.onContentChange) : undefined)}
              />
            ) : (
              <pre class="ck-code" data-syntax={n.syntax}>
                <code data-syntax={n.syntax}>{value}</code>
              </pre>
            )}
            {n.footer ? <div class="ck-codeblock-footer">{all(n.footer)}</div> : null}
          </figure>
        );
      }
      case 'webframe':
        return <Webframe key={key} node={n} state={state} onAction={press} />;
      default:
        return (
          <span key={key} class="ck-unknown">
            (unsupported element “{String((node as { type?: unknown }).type)}”)
          </span>
        );
    }
  }

  return <div class="contentkit">{draw(element, 0)}</div>;
}
