import { z } from 'zod';
import { ActionSchema, ConfirmSchema, IconSchema } from '../attributes';
import { defineElement } from '../define';

export const ButtonSchema = z
  .object({
    type: z.literal('button'),
    label: z.string().optional().describe('text on the button (a button needs a label or an icon)'),
    icon: IconSchema.optional().describe('icon before the label'),
    tooltip: z.string().optional().describe('tooltip; the accessible name of an icon-only button'),
    onPress: ActionSchema.describe('action dispatched when pressed'),
    style: z
      .enum(['primary', 'secondary', 'danger'])
      .optional()
      .describe('visual weight; `secondary` by default'),
    disabled: z.boolean().optional().describe('when true the button cannot be pressed'),
    confirm: ConfirmSchema.optional().describe('`{ title, text, confirm }`: asks before dispatching'),
  })
  .strict()
  .refine((b) => b.label !== undefined || b.icon !== undefined, {
    message: 'a button needs a `label` or an `icon`',
  })
  .describe('A button; pressing it (click, Enter or Space) dispatches `onPress`.');

/** `button`. @example <button label="Go" onPress={{ action: 'go' }} /> */
export const element = defineElement({
  type: 'button',
  schema: ButtonSchema,
  group: 'Inputs',
  place: 'descendant',
  jsx: 'leaf',
  field: true,
});
