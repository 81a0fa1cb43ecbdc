import { z } from 'zod';
import {
  ActionSchema,
  ButtonSchema,
  ConfirmSchema,
  DynamicBindingSchema,
  IconSchema,
  LinkSchema,
  stateKey,
  urlObject,
} from './schema-actions';

export { ICONS } from './icons';

/*
 * ContentKit, specified once. Every element, attribute and built-in action is declared here (the
 * actions, icons, buttons and links in ./schema-actions.ts, re-exported) with
 * its description; the TypeScript types (./types.ts), the host's validation of render output
 * (./validate.ts) and docs/contentkit.md (scripts/contentkit-docs.mjs) are derived from it.
 * Only the host imports this module (zod stays out of integration bundles): integrations import
 * types only.
 */

export {
  ActionSchema,
  BUILTIN_ACTIONS,
  ButtonSchema,
  ConfirmSchema,
  DynamicBindingSchema,
  IconSchema,
  LinkSchema,
} from './schema-actions';

const textStyle = z.enum(['default', 'bold', 'italic', 'strikethrough', 'code']);

/** A `text` element: a plain string or inline runs, with a style. */
export interface ContentKitTextShape {
  type: 'text';
  text?: string;
  children?: ContentKitInline[];
  style?: z.infer<typeof textStyle>;
}
/** An inline run of `text`/`hint`: a string, a styled `text` or a `link`. */
export type ContentKitInline = string | ContentKitTextShape | z.infer<typeof LinkSchema>;

const inline: z.ZodType<ContentKitInline> = z.lazy(() => z.union([z.string(), LinkSchema, TextSchema]));

export const TextSchema: z.ZodType<ContentKitTextShape> = z
  .object({
    type: z.literal('text'),
    text: z.string().optional().describe('plain text (never HTML); or give `children`'),
    children: z.array(inline).optional().describe('inline runs: strings, styled `text`, `link`'),
    style: textStyle.optional().describe('`default`, `bold`, `italic`, `strikethrough` or `code`'),
  })
  .strict()
  .refine((t) => (t.text === undefined) !== (t.children === undefined), {
    message: '`text` needs exactly one of `text` (a string) or `children` (inline runs)',
  })
  .describe('Text with styles and links.');

export const MarkdownSchema = z
  .object({
    type: z.literal('markdown'),
    content: z.string().describe('Markdown (raw HTML is shown as text)'),
  })
  .strict()
  .describe('Markdown text.');

export const HintSchema = z
  .object({
    type: z.literal('hint'),
    children: z.array(inline).describe('inline runs'),
    style: z.enum(['info', 'warning', 'success', 'danger']).optional().describe('tone; `info` by default'),
  })
  .strict()
  .describe('A short note, e.g. under an input or at the top of a screen.');

export const DividerSchema = z
  .object({
    type: z.literal('divider'),
    size: z.enum(['small', 'medium', 'large']).optional().describe('space around the rule'),
  })
  .strict()
  .describe('A horizontal rule.');

export const TextInputSchema = z
  .object({
    type: z.literal('textinput'),
    state: stateKey,
    label: z.string().optional().describe('visible label (and accessible name)'),
    initialValue: z.string().optional().describe('value on first render'),
    placeholder: z.string().optional().describe('placeholder while empty'),
    multiline: z.boolean().optional().describe('a text area instead of one line'),
    inputType: z.enum(['text', 'password', 'email', 'url', 'number']).optional().describe('kind of value'),
  })
  .strict()
  .describe('A text input bound to a state key: typing updates the state without a round trip.');

export const SelectOptionSchema = z
  .object({
    id: z.string().describe('value stored in the state'),
    label: z.string().describe('text shown'),
    icon: IconSchema.optional().describe('icon before the label'),
  })
  .strict();

export const SelectSchema = z
  .object({
    type: z.literal('select'),
    state: stateKey,
    label: z.string().optional().describe('visible label'),
    initialValue: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe('selected id(s)'),
    placeholder: z.string().optional().describe('shown while nothing is selected'),
    multiple: z.boolean().optional().describe('several options may be selected'),
    options: z
      .union([z.array(SelectOptionSchema), urlObject])
      .describe('`[{ id, label, icon? }]`, or `{ url }` answering that list for `?q=<typed text>`'),
  })
  .strict()
  .describe('A drop-down with static options or options completed from a URL.');

export const SwitchSchema = z
  .object({
    type: z.literal('switch'),
    state: stateKey,
    label: z.string().optional().describe('visible label'),
    initialValue: z.boolean().optional().describe('on or off on first render'),
    confirm: ConfirmSchema.optional().describe('asks before changing'),
  })
  .strict()
  .describe('An on/off switch bound to a state key.');

export const CheckboxSchema = z
  .object({
    type: z.literal('checkbox'),
    state: stateKey,
    label: z.string().optional().describe('visible label'),
    initialValue: z.boolean().optional().describe('checked on first render'),
    confirm: ConfirmSchema.optional().describe('asks before changing'),
  })
  .strict()
  .describe('A checkbox bound to a state key.');

export const RadioSchema = z
  .object({
    type: z.literal('radio'),
    state: stateKey,
    value: z.string().describe('stored in `state` when this radio is chosen'),
    label: z.string().optional().describe('visible label'),
    initialValue: z.string().optional().describe('value of the group on first render'),
    confirm: ConfirmSchema.optional().describe('asks before changing'),
  })
  .strict()
  .describe('One choice of a group of radios sharing a state key.');

export const ImageSchema = z
  .object({
    type: z.literal('image'),
    source: urlObject.describe('`{ url }` of the image'),
    alt: z.string().optional().describe('text alternative'),
    aspectRatio: z.number().positive().optional().describe('width / height, reserved before loading'),
  })
  .strict()
  .describe('An image.');

const children = (what: string) => z.array(z.lazy(() => DescendantSchema)).describe(what);

/** `codeblock` (an interface: its `header`/`footer` hold elements). */
export interface ContentKitCodeBlockShape {
  type: 'codeblock';
  content: string | z.infer<typeof DynamicBindingSchema>;
  syntax?: string;
  lineNumbers?: boolean;
  state?: string;
  onContentChange?: z.infer<typeof ActionSchema>;
  header?: ContentKitDescendant[];
  footer?: ContentKitDescendant[];
}

export const CodeBlockSchema: z.ZodType<ContentKitCodeBlockShape> = z
  .object({
    type: z.literal('codeblock'),
    content: z.union([z.string(), DynamicBindingSchema]).describe('the code, or `{ $state }` bound to state'),
    syntax: z.string().optional().describe('language for highlighting (`mermaid`, `ts`, ...)'),
    lineNumbers: z.boolean().optional().describe('show line numbers'),
    state: stateKey.optional().describe('when set, the code is editable and bound to this state key'),
    onContentChange: ActionSchema.optional().describe('dispatched after an edit (on blur)'),
    header: z
      .array(z.lazy(() => DescendantSchema))
      .optional()
      .describe('elements above the code (e.g. buttons)'),
    footer: z
      .array(z.lazy(() => DescendantSchema))
      .optional()
      .describe('elements below the code (e.g. a webframe preview)'),
  })
  .strict()
  .describe('Code with syntax highlighting; editable when `state` is set.');

export const WebframeSchema = z
  .object({
    type: z.literal('webframe'),
    source: urlObject.describe("`{ url }` of the frame content (usually the integration's public endpoint)"),
    aspectRatio: z.number().positive().optional().describe('width / height until `@webframe.resize`'),
    data: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), DynamicBindingSchema]))
      .optional()
      .describe('values posted to the frame as `{ state }` when ready and when they change'),
  })
  .strict()
  .describe('A sandboxed frame with a message bridge (ready, resize, state); see the CSP in the manifest.');

export const TextFieldInputSchema = z
  .object({
    type: z.literal('input'),
    id: z.string().min(1).describe('key of the value in `action.inputs`'),
    label: z.string().optional().describe('label above the input'),
    placeholder: z.string().optional().describe('placeholder while empty'),
    initialValue: z.string().optional().describe('value on first render'),
  })
  .strict()
  .describe(
    'Without `element`: a one-line text input; its value is sent with the next action as `action.inputs[id]`.',
  );

/** The elements an `input` field may wrap (its `element`). */
export type ContentKitFormElement =
  | z.infer<typeof TextInputSchema>
  | z.infer<typeof SelectSchema>
  | z.infer<typeof SwitchSchema>
  | z.infer<typeof CheckboxSchema>
  | z.infer<typeof RadioSchema>
  | z.infer<typeof ButtonSchema>
  | ContentKitCodeBlockShape;

/** Schemas of the elements an `input` field may wrap, by `type`. */
export const FORM_ELEMENT_SCHEMAS = {
  textinput: TextInputSchema,
  select: SelectSchema,
  switch: SwitchSchema,
  checkbox: CheckboxSchema,
  radio: RadioSchema,
  button: ButtonSchema,
  codeblock: CodeBlockSchema,
} as const;

/** `input` with `element`: a labelled field wrapping one form element. */
export interface ContentKitInputFieldShape {
  type: 'input';
  label: string;
  hint?: ContentKitInline;
  element: ContentKitFormElement;
}

export const InputFieldSchema: z.ZodType<ContentKitInputFieldShape> = z
  .object({
    type: z.literal('input'),
    label: z.string().describe('the field label, bound to the control (its accessible name); may be empty'),
    hint: inline
      .optional()
      .describe("help under the label (a string, `text` or `link`), the control's description"),
    element: z
      .lazy(() => byType<ContentKitFormElement>(FORM_ELEMENT_SCHEMAS, "as an `input`'s `element`"))
      .describe('the control: `textinput`, `select`, `switch`, `checkbox`, `radio`, `button` or `codeblock`'),
  })
  .strict()
  .describe(
    'With `element`: a labelled form field (configuration screens); the label names the control and the hint describes it.',
  );

/**
 * `input`: a labelled field when it has `element` ({@link InputFieldSchema}), else the one-line
 * text input sending `action.inputs[id]` ({@link TextFieldInputSchema}).
 */
export const InputSchema = z
  .custom<ContentKitInputFieldShape | z.infer<typeof TextFieldInputSchema>>()
  .superRefine((value, ctx) => {
    const field = typeof value === 'object' && value !== null && 'element' in value;
    forwardIssues(field ? InputFieldSchema : TextFieldInputSchema, value, ctx);
  })
  .describe('A labelled form field (with `element`) or a one-line text input (with `id`).');

/** Children of a container: any element but the roots (`block`, `modal`, `configuration`). */
interface ContainerChildren {
  children: ContentKitDescendant[];
}
/** `box`. */
export interface ContentKitBoxShape extends ContainerChildren {
  type: 'box';
  grow?: number;
}
/** `vstack` / `hstack`. */
export interface ContentKitStackShape<T extends 'vstack' | 'hstack' = 'vstack' | 'hstack'>
  extends ContainerChildren {
  type: T;
  align?: 'start' | 'center' | 'end';
  gap?: 'none' | 'small' | 'medium' | 'large';
}
/** `card`. */
export interface ContentKitCardShape extends ContainerChildren {
  type: 'card';
  title?: string;
  hint?: string;
  icon?: z.infer<typeof IconSchema> | { url: string } | z.infer<typeof ImageSchema>;
  onPress?: z.infer<typeof ActionSchema>;
  buttons?: z.infer<typeof ButtonSchema>[];
}

export const BoxSchema: z.ZodType<ContentKitBoxShape> = z
  .object({
    type: z.literal('box'),
    grow: z.number().min(0).optional().describe('flex grow inside a stack'),
    children: children('elements'),
  })
  .strict()
  .describe('A plain container.');

const stackShape = {
  align: z.enum(['start', 'center', 'end']).optional().describe('cross-axis alignment; `start` by default'),
  gap: z.enum(['none', 'small', 'medium', 'large']).optional().describe('space between children'),
  children: children('elements'),
};
export const VStackSchema: z.ZodType<ContentKitStackShape<'vstack'>> = z
  .object({ type: z.literal('vstack'), ...stackShape })
  .strict()
  .describe('Children stacked vertically.');
export const HStackSchema: z.ZodType<ContentKitStackShape<'hstack'>> = z
  .object({ type: z.literal('hstack'), ...stackShape })
  .strict()
  .describe('Children side by side (wrapping on narrow screens).');

export const CardSchema: z.ZodType<ContentKitCardShape> = z
  .object({
    type: z.literal('card'),
    title: z.string().optional().describe('heading'),
    hint: z.string().optional().describe('line under the title'),
    icon: z
      .union([IconSchema, urlObject, z.lazy(() => ImageSchema)], {
        error:
          'expected an icon name (docs/contentkit.md "Icons"), `{ url }` of an http(s) image, or an `image` element whose `source.url` is an http(s) URL',
      })
      .optional()
      .describe('icon name, `{ url }` of an image, or an `image` element'),
    onPress: ActionSchema.optional().describe('makes the whole card pressable'),
    buttons: z.array(ButtonSchema).optional().describe('buttons in the card header'),
    children: children('body elements'),
  })
  .strict()
  .describe('A bordered card with a header (title, hint, icon, buttons).');

/** Every element that may appear inside a block, a modal or a container. */
export type ContentKitDescendant =
  | ContentKitBoxShape
  | ContentKitStackShape<'vstack'>
  | ContentKitStackShape<'hstack'>
  | ContentKitCardShape
  | ContentKitTextShape
  | z.infer<typeof MarkdownSchema>
  | z.infer<typeof HintSchema>
  | z.infer<typeof DividerSchema>
  | ContentKitInputFieldShape
  | z.infer<typeof TextFieldInputSchema>
  | ContentKitFormElement
  | z.infer<typeof ImageSchema>
  | z.infer<typeof WebframeSchema>;

/** Schemas of the elements allowed inside containers, by `type`, grouped as the docs list them. */
export const DESCENDANT_SCHEMAS = {
  box: BoxSchema,
  vstack: VStackSchema,
  hstack: HStackSchema,
  divider: DividerSchema,
  card: CardSchema,
  text: TextSchema,
  markdown: MarkdownSchema,
  hint: HintSchema,
  input: InputSchema,
  // the form elements: textinput, select, switch, checkbox, radio, button, codeblock
  ...FORM_ELEMENT_SCHEMAS,
  image: ImageSchema,
  webframe: WebframeSchema,
} as const;

export const BlockSchema = z
  .object({
    type: z.literal('block'),
    controls: z.array(ButtonSchema).optional().describe('buttons of the block toolbar (editor)'),
    children: children('elements'),
  })
  .strict()
  .describe('The root of a block.');

export const ModalSchema = z
  .object({
    type: z.literal('modal'),
    title: z.string().optional().describe('heading'),
    subtitle: z.string().optional().describe('line under the heading'),
    size: z.enum(['medium', 'large', 'xlarge', 'fullscreen']).optional().describe('`medium` by default'),
    returnValue: z.record(z.string(), z.unknown()).optional().describe('sent to the opener on close'),
    submit: ButtonSchema.optional().describe('primary button of the footer'),
    children: children('elements'),
  })
  .strict()
  .describe('The root of a component opened with `@ui.modal.open` (Escape closes it).');

/*
 * `configuration` is accepted at the root in every render context: the validator checks an answer
 * without the request it answers, and outside a configuration screen the dashboard draws it as a
 * plain container (docs/contentkit.md, `configuration`).
 */
export const ConfigurationSchema = z
  .object({
    type: z.literal('configuration'),
    children: children('elements'),
  })
  .strict()
  .describe(
    'The root of a configuration screen (render context `configuration`), drawn like `block`. Accepted in other contexts too (validation does not depend on the context), where it is a plain container like `block`.',
  );

/** Every element schema by `type`: roots (`block`, `modal`, `configuration`) first. */
export const ELEMENT_SCHEMAS = {
  block: BlockSchema,
  modal: ModalSchema,
  configuration: ConfigurationSchema,
  ...DESCENDANT_SCHEMAS,
} as const;

/** Parses `value` with `schema`, reporting its issues (paths kept) on `ctx`. */
function forwardIssues(schema: z.ZodType, value: unknown, ctx: z.RefinementCtx): void {
  const result = schema.safeParse(value);
  if (result.success) return;
  for (const issue of result.error.issues) {
    ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  }
}

/**
 * Picks the schema by the element's `type`, so an error names the attribute that is wrong rather
 * than listing every element a union tried.
 */
function byType<Out>(schemas: Record<string, z.ZodType>, where: string): z.ZodType<Out> {
  return z.custom<Out>().superRefine((value, ctx) => {
    const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
    const schema = typeof type === 'string' && Object.hasOwn(schemas, type) ? schemas[type] : undefined;
    if (!schema) {
      ctx.addIssue({
        code: 'custom',
        path: typeof type === 'string' ? ['type'] : [],
        message:
          typeof type === 'string'
            ? `unknown element type "${type}" ${where}; expected one of ${Object.keys(schemas).join(', ')}`
            : 'expected a ContentKit element ({ "type": ... })',
      });
      return;
    }
    forwardIssues(schema, value, ctx);
  });
}

export const DescendantSchema: z.ZodType<ContentKitDescendant> = byType<ContentKitDescendant>(
  DESCENDANT_SCHEMAS,
  'inside a container',
);

/** The element a component's `render` returns: a `block`, a `modal`, a `configuration` or any single element. */
export const ElementSchema = byType<
  | ContentKitDescendant
  | z.infer<typeof BlockSchema>
  | z.infer<typeof ModalSchema>
  | z.infer<typeof ConfigurationSchema>
>(ELEMENT_SCHEMAS, 'at the root');

/** Where a component renders (`element.context`). */
export const RenderContextSchema = z
  .object({
    type: z
      .enum(['document', 'configuration', 'modal'])
      .describe('a page/the editor, a configuration screen, a modal'),
    editable: z.boolean().describe('whether the user may edit here (editor, configuration)'),
  })
  .catchall(z.unknown());

/** The runtime's answer to a component render event. */
export const RenderOutputSchema = z
  .object({
    element: ElementSchema.describe('what `render` returned'),
    state: z
      .record(z.string(), z.unknown())
      .describe('the state after the action (sent back with the next render)'),
    props: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('the props, changed when an action returned `props`'),
    cache: z
      .object({ maxAge: z.number().int().min(0) })
      .strict()
      .optional()
      .describe('`{ maxAge }` seconds the host may reuse this answer (`element.setCache`)'),
  })
  .strict();
