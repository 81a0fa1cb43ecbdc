import { z } from 'zod';
import { ActionSchema, ConfirmSchema, IconSchema } from '../attributes';
import { defineElement, INPUT_FIELD } from '../define';

/** What a button has besides `type` (a block control is a button without `type`). */
const buttonFields = {
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
};
const labelOrIcon = (b: { label?: string; icon?: string }) => b.label !== undefined || b.icon !== undefined;
const labelOrIconMessage = { message: 'a button needs a `label` or an `icon`' };

export const ButtonSchema = z
  .object({ type: z.literal('button'), ...buttonFields })
  .strict()
  .refine(labelOrIcon, labelOrIconMessage)
  .describe('A button; pressing it (click, Enter or Space) dispatches `onPress`.');

/**
 * A block toolbar control written without `type` (`controls={[{ label, icon, onPress }]}`): the
 * attributes of a `button`.
 */
export const ButtonControlSchema = z
  .object(buttonFields)
  .strict()
  .refine(labelOrIcon, labelOrIconMessage)
  .describe('A button of the block toolbar written without `type`: the attributes of a `button`.');

/** `button`. @example <button label="Go" onPress={{ action: 'go' }} /> */
export const element = defineElement({ type: 'button', schema: ButtonSchema, ...INPUT_FIELD });
