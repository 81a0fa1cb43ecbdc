import { z } from 'zod';
import { defineElement, FIELD_ELEMENTS, fieldElement, forwardIssues } from '../define';
import type { ContentKitFormElement } from '../registry';
import { type ContentKitInline, inline } from './text';

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
    element: fieldElement().describe(`the control: ${FIELD_ELEMENTS}`),
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

/** `input`. @example <input label="Token" element={<textinput state="token" />} /> */
export const element = defineElement({
  type: 'input',
  schema: InputSchema,
  group: 'Inputs',
  place: 'descendant',
  jsx: 'leaf',
  forms: [InputFieldSchema, TextFieldInputSchema],
});
