import type { z } from 'zod';
import type * as S from './schema';

/*
 * ContentKit types, derived from the schema (./schema.ts). Type-only imports: nothing of zod
 * reaches an integration bundle.
 */

export type { ContentKitDescendant, ContentKitFormElement, ContentKitInline } from './schema';

/** An action (`onPress`, ...): `action` names it, other keys are payload. @example const a: ContentKitAction = { action: '@ui.url.open', url: 'https://example.com' }; */
export type ContentKitAction = z.infer<typeof S.ActionSchema>;
/** A value bound to state: `element.dynamicState('code')`. @example const b: ContentKitDynamicBinding = { $state: 'code' }; */
export type ContentKitDynamicBinding = z.infer<typeof S.DynamicBindingSchema>;
/** A confirmation dialog. @example const c: ContentKitConfirm = { title: 'Delete?', text: 'This cannot be undone.', confirm: 'Delete' }; */
export type ContentKitConfirm = z.infer<typeof S.ConfirmSchema>;
/** A URL in parts (`select` options from a URL). @example const u: ContentKitUrlParts = { host: 'example.com', pathname: '/branches', query: { repo: { $state: 'repo' } } }; */
export type ContentKitUrlParts = z.infer<typeof S.UrlPartsSchema>;
/** A block toolbar control: a `button`, `type` optional. @example const c: ContentKitBlockControl = { label: 'Edit', icon: 'edit', onPress: { action: 'edit' } }; */
export type ContentKitBlockControl = S.ContentKitBlockControlShape;
/** An option of `select`. @example const o: ContentKitSelectOption = { id: 'main', label: 'main' }; */
export type ContentKitSelectOption = z.infer<typeof S.SelectOptionSchema>;

/** @example const b: ContentKitBlock = { type: 'block', children: [{ type: 'text', text: 'Hi' }] }; */
export type ContentKitBlock = z.infer<typeof S.BlockSchema>;
/** @example const m: ContentKitModal = { type: 'modal', title: 'Preview', children: [] }; */
export type ContentKitModal = z.infer<typeof S.ModalSchema>;
/** @example const c: ContentKitConfiguration = { type: 'configuration', children: [] }; */
export type ContentKitConfiguration = z.infer<typeof S.ConfigurationSchema>;
/** @example const b: ContentKitBox = { type: 'box', children: [] }; */
export type ContentKitBox = S.ContentKitBoxShape;
/** @example const s: ContentKitStack = { type: 'hstack', align: 'center', children: [] }; */
export type ContentKitStack = S.ContentKitStackShape;
/** @example const c: ContentKitCard = { type: 'card', title: 'PR #1', children: [] }; */
export type ContentKitCard = S.ContentKitCardShape;
/** @example const t: ContentKitText = { type: 'text', style: 'bold', text: 'Hi' }; */
export type ContentKitText = S.ContentKitTextShape;
/** @example const l: ContentKitLink = { type: 'link', target: { url: 'https://example.com' }, children: ['docs'] }; */
export type ContentKitLink = z.infer<typeof S.LinkSchema>;
/** @example const m: ContentKitMarkdown = { type: 'markdown', content: '**hi**' }; */
export type ContentKitMarkdown = z.infer<typeof S.MarkdownSchema>;
/** @example const h: ContentKitHint = { type: 'hint', children: ['Saved'] }; */
export type ContentKitHint = z.infer<typeof S.HintSchema>;
/** @example const d: ContentKitDivider = { type: 'divider' }; */
export type ContentKitDivider = z.infer<typeof S.DividerSchema>;
/** Either form of `input`. @example const i: ContentKitInput = { type: 'input', id: 'name' }; */
export type ContentKitInput = z.infer<typeof S.InputSchema>;
/** `input` as a labelled field. @example const f: ContentKitInputField = { type: 'input', label: 'Token', hint: 'From your account settings', element: { type: 'textinput', state: 'token' } }; */
export type ContentKitInputField = S.ContentKitInputFieldShape;
/** `input` as a one-line text input (no `element`). @example const i: ContentKitTextFieldInput = { type: 'input', id: 'name' }; */
export type ContentKitTextFieldInput = z.infer<typeof S.TextFieldInputSchema>;
/** @example const t: ContentKitTextInput = { type: 'textinput', state: 'title' }; */
export type ContentKitTextInput = z.infer<typeof S.TextInputSchema>;
/** @example const s: ContentKitSelect = { type: 'select', state: 'branch', options: [{ id: 'main', label: 'main' }] }; */
export type ContentKitSelect = z.infer<typeof S.SelectSchema>;
/** @example const s: ContentKitSwitch = { type: 'switch', state: 'enabled' }; */
export type ContentKitSwitch = z.infer<typeof S.SwitchSchema>;
/** @example const c: ContentKitCheckbox = { type: 'checkbox', state: 'agree' }; */
export type ContentKitCheckbox = z.infer<typeof S.CheckboxSchema>;
/** @example const r: ContentKitRadio = { type: 'radio', state: 'size', value: 'large' }; */
export type ContentKitRadio = z.infer<typeof S.RadioSchema>;
/** @example const b: ContentKitButton = { type: 'button', label: 'Go', onPress: { action: 'go' } }; */
export type ContentKitButton = z.infer<typeof S.ButtonSchema>;
/** @example const i: ContentKitImage = { type: 'image', source: { url: 'https://example.com/a.png' } }; */
export type ContentKitImage = z.infer<typeof S.ImageSchema>;
/** @example const c: ContentKitCodeBlock = { type: 'codeblock', content: 'graph TD; A-->B', syntax: 'mermaid' }; */
export type ContentKitCodeBlock = S.ContentKitCodeBlockShape;
/** @example const w: ContentKitWebframe = { type: 'webframe', source: { url: 'https://example.com/frame' } }; */
export type ContentKitWebframe = z.infer<typeof S.WebframeSchema>;

/**
 * Any ContentKit element: what a component's `render` returns (usually a `block`; a `modal` for
 * components opened with `@ui.modal.open`).
 * @example const ui: ContentKitElement = { type: 'block', children: [{ type: 'button', label: 'Go', onPress: { action: 'go' } }] };
 */
export type ContentKitElement = z.infer<typeof S.ElementSchema>;
/** Every element `type`. @example const t: ContentKitElementType = 'card'; */
export type ContentKitElementType = ContentKitElement['type'];
/** Where a component renders. @example const c: ContentKitRenderContext = { type: 'document', editable: true }; */
export type ContentKitRenderContext = z.infer<typeof S.RenderContextSchema>;
/** The answer to a component render event. @example const o: ContentKitRenderOutput = { element: { type: 'block', children: [] }, state: {} }; */
export type ContentKitRenderOutput = z.infer<typeof S.RenderOutputSchema>;
/** A render cache hint: the host may reuse the output this many seconds. @example const c: ContentKitCache = { maxAge: 60 }; */
export type ContentKitCache = NonNullable<ContentKitRenderOutput['cache']>;
