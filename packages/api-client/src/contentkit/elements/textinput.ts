import { z } from 'zod';
import { disabled, stateKey } from '../attributes';
import { defineElement, INPUT_FIELD } from '../define';

export const TextInputSchema = z
  .object({
    type: z.literal('textinput'),
    state: stateKey,
    label: z.string().optional().describe('visible label (and accessible name)'),
    initialValue: z.string().optional().describe('value on first render'),
    placeholder: z.string().optional().describe('placeholder while empty'),
    multiline: z.boolean().optional().describe('a text area instead of one line'),
    inputType: z.enum(['text', 'password', 'email', 'url', 'number']).optional().describe('kind of value'),
    disabled,
  })
  .strict()
  .describe('A text input bound to a state key: typing updates the state without a round trip.');

/** `textinput`. @example <textinput state="title" placeholder="Title" /> */
export const element = defineElement({ type: 'textinput', schema: TextInputSchema, ...INPUT_FIELD });
