import { z } from 'zod';
import { confirmChange, disabled, label, onValueChange, stateKey } from '../attributes';
import { defineElement, INPUT_FIELD } from '../define';

export const CheckboxSchema = z
  .object({
    type: z.literal('checkbox'),
    state: stateKey,
    label,
    initialValue: z.boolean().optional().describe('checked on first render'),
    confirm: confirmChange,
    disabled,
    onValueChange,
  })
  .strict()
  .describe('A checkbox bound to a state key.');

/** `checkbox`. @example <checkbox state="agree" label="I agree" /> */
export const element = defineElement({ type: 'checkbox', schema: CheckboxSchema, ...INPUT_FIELD });
