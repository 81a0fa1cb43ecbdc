import { z } from 'zod';
import { ConfirmSchema, disabled, onValueChange, stateKey } from '../attributes';
import { defineElement } from '../define';

export const SwitchSchema = z
  .object({
    type: z.literal('switch'),
    state: stateKey,
    label: z.string().optional().describe('visible label'),
    initialValue: z.boolean().optional().describe('on or off on first render'),
    confirm: ConfirmSchema.optional().describe('asks before changing'),
    disabled,
    onValueChange,
  })
  .strict()
  .describe('An on/off switch bound to a state key.');

/** `switch`. @example <switch state="enabled" label="Enabled" /> */
export const element = defineElement({
  type: 'switch',
  schema: SwitchSchema,
  group: 'Inputs',
  place: 'descendant',
  jsx: 'leaf',
  field: true,
});
