import { z } from 'zod';
import { ActionSchema, DynamicBindingSchema, stateKey } from '../attributes';
import { defineElement, descendant } from '../define';
import type { ContentKitDescendant } from '../registry';

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
    header: z.array(descendant()).optional().describe('elements above the code (e.g. buttons)'),
    footer: z.array(descendant()).optional().describe('elements below the code (e.g. a webframe preview)'),
  })
  .strict()
  .describe('Code with syntax highlighting; editable when `state` is set.');

/** `codeblock`. @example <codeblock content="graph TD; A-->B" syntax="mermaid" /> */
export const element = defineElement({
  type: 'codeblock',
  schema: CodeBlockSchema,
  group: 'Media',
  place: 'descendant',
  jsx: 'leaf',
  field: true,
});
