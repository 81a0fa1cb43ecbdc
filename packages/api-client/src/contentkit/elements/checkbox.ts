import { z } from 'zod';
import { ConfirmSchema, disabled, onValueChange, stateKey } from '../attributes';
import { defineElement } from '../define';

export const CheckboxSchema = z
  .object({
    type: z.literal('checkbox'),
    state: stateKey,
    label: z.string().optional().describe('visible label'),
    initialValue: z.boolean().optional().describe('checked on first render'),
    confirm: ConfirmSchema.optional().describe('asks before changing'),
    disabled,
    onValueChange,
  })
  .strict()
  .describe('A checkbox bound to a state key.');

/** `checkbox`. @example <checkbox state="agree" label="I agree" /> */
export const element = defineElement({
  type: 'checkbox',
  schema: CheckboxSchema,
  group: 'Inputs',
  place: 'descendant',
  jsx: 'leaf',
  field: true,
});
