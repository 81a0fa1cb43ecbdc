import { z } from 'zod';
import { confirmChange, disabled, label, onValueChange, stateKey } from '../attributes';
import { defineElement, INPUT_FIELD } from '../define';

export const RadioSchema = z
  .object({
    type: z.literal('radio'),
    state: stateKey,
    value: z.string().describe('stored in `state` when this radio is chosen'),
    label,
    initialValue: z.string().optional().describe('value of the group on first render'),
    confirm: confirmChange,
    disabled,
    onValueChange,
  })
  .strict()
  .describe('One choice of a group of radios sharing a state key.');

/** `radio`. @example <radio state="size" value="large" label="Large" /> */
export const element = defineElement({ type: 'radio', schema: RadioSchema, ...INPUT_FIELD });
