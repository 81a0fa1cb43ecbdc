import { z } from 'zod';
import { confirmChange, disabled, label, onValueChange, stateKey } from '../attributes';
import { defineElement, INPUT_FIELD } from '../define';

export const SwitchSchema = z
  .object({
    type: z.literal('switch'),
    state: stateKey,
    label,
    initialValue: z.boolean().optional().describe('on or off on first render'),
    confirm: confirmChange,
    disabled,
    onValueChange,
  })
  .strict()
  .describe('An on/off switch bound to a state key.');

/** `switch`. @example <switch state="enabled" label="Enabled" /> */
export const element = defineElement({ type: 'switch', schema: SwitchSchema, ...INPUT_FIELD });
