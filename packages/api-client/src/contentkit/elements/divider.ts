import { z } from 'zod';
import { defineElement } from '../define';

export const DividerSchema = z
  .object({
    type: z.literal('divider'),
    size: z.enum(['small', 'medium', 'large']).optional().describe('space around the rule'),
  })
  .strict()
  .describe('A horizontal rule.');

/** `divider`. @example <divider size="large" /> */
export const element = defineElement({
  type: 'divider',
  schema: DividerSchema,
  group: 'Layout',
  place: 'descendant',
  jsx: 'leaf',
});
