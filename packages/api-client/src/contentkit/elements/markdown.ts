import { z } from 'zod';
import { defineElement } from '../define';

export const MarkdownSchema = z
  .object({
    type: z.literal('markdown'),
    content: z.string().describe('Markdown (raw HTML is shown as text)'),
  })
  .strict()
  .describe('Markdown text.');

/** `markdown`. @example <markdown content="**hi**" /> */
export const element = defineElement({
  type: 'markdown',
  schema: MarkdownSchema,
  group: 'Text',
  place: 'descendant',
  jsx: 'leaf',
});
