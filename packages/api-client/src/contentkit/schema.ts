import { z } from 'zod';
import { ElementSchema } from './registry';

/*
 * ContentKit, specified once: one file per element in ./elements/ (its schema, docs group, place
 * and JSX kind), the attributes they share in ./attributes.ts, and what is derived from them in
 * ./registry.ts. This module re-exports them with the render output's schema. The TypeScript
 * types (./types.ts), the host's validation (./validate.ts), docs/contentkit.md,
 * docs/schemas/contentkit.schema.json and the JSX name list (./jsx-names.generated.ts) all derive
 * from it (`npm run gen:contentkit`). Only the host imports this module (zod stays out of
 * integration bundles): integrations import types only.
 */

export {
  ActionSchema,
  BUILTIN_ACTIONS,
  ConfirmSchema,
  DynamicBindingSchema,
  IconSchema,
  UrlPartsSchema,
} from './attributes';
export { DOC_GROUPS, type DocGroup, type ElementDefinition, type ElementPlace, type JsxKind } from './define';
export { BlockSchema, type ContentKitBlockControlShape, type ContentKitBlockShape } from './elements/block';
export { BoxSchema, type ContentKitBoxShape } from './elements/box';
export { ButtonControlSchema, ButtonSchema } from './elements/button';
export { CardSchema, type ContentKitCardShape } from './elements/card';
export { CheckboxSchema } from './elements/checkbox';
export { CodeBlockSchema, type ContentKitCodeBlockShape } from './elements/codeblock';
export { ConfigurationSchema, type ContentKitConfigurationShape } from './elements/configuration';
export { DividerSchema } from './elements/divider';
export { HintSchema } from './elements/hint';
export { HStackSchema } from './elements/hstack';
export { ImageSchema } from './elements/image';
export {
  type ContentKitInputFieldShape,
  InputFieldSchema,
  InputSchema,
  TextFieldInputSchema,
} from './elements/input';
export { LinkSchema } from './elements/link';
export { MarkdownSchema } from './elements/markdown';
export { type ContentKitModalShape, ModalSchema } from './elements/modal';
export { RadioSchema } from './elements/radio';
export { SelectOptionSchema, SelectSchema } from './elements/select';
export type { ContentKitStackShape } from './elements/stack';
export { SwitchSchema } from './elements/switch';
export { type ContentKitInline, type ContentKitTextShape, TextSchema } from './elements/text';
export { TextInputSchema } from './elements/textinput';
export { VStackSchema } from './elements/vstack';
export { WebframeSchema } from './elements/webframe';
export { ICONS } from './icons';
export {
  type ContentKitDeclaredType,
  type ContentKitDescendant,
  type ContentKitFormElement,
  type ContentKitRoot,
  DESCENDANT_SCHEMAS,
  DescendantSchema,
  ELEMENT_SCHEMAS,
  ELEMENTS,
  ElementSchema,
  FORM_ELEMENT_SCHEMAS,
  FormElementSchema,
  fieldElementList,
} from './registry';

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
