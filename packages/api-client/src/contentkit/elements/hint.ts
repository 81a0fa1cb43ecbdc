import { z } from 'zod';
import { defineElement } from '../define';
import { inline } from './text';

export const HintSchema = z
  .object({
    type: z.literal('hint'),
    children: z.array(inline).describe('inline runs'),
    style: z.enum(['info', 'warning', 'success', 'danger']).optional().describe('tone; `info` by default'),
  })
  .strict()
  .describe('A short note, e.g. under an input or at the top of a screen.');

/** `hint`. @example <hint style="warning">Careful</hint> */
export const element = defineElement({
  type: 'hint',
  schema: HintSchema,
  group: 'Text',
  place: 'descendant',
  jsx: 'inline',
});
