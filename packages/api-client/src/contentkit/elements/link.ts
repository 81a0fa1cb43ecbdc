import { z } from 'zod';
import { urlObject } from '../attributes';
import { defineElement } from '../define';

export const LinkSchema = z
  .object({
    type: z.literal('link'),
    target: urlObject.describe('`{ url }` the link opens'),
    children: z.array(z.string()).describe('the link text'),
  })
  .strict()
  .describe('A link, inside `text` or `hint`.');

/** `link`: only inside `text`/`hint` runs. @example <text>See <link target={{ url: 'https://example.com' }}>docs</link></text> */
export const element = defineElement({
  type: 'link',
  schema: LinkSchema,
  group: 'Text',
  place: 'inline',
  jsx: 'inline',
  docsNote: '(inside `text` and `hint`)',
});
