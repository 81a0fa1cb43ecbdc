import { z } from 'zod';
import { defineElement } from '../define';
import { LinkSchema } from './link';

const textStyle = z.enum(['default', 'bold', 'italic', 'strikethrough', 'code']);

/** A `text` element: a plain string or inline runs, with a style. */
export interface ContentKitTextShape {
  type: 'text';
  text?: string;
  children?: ContentKitInline[];
  style?: z.infer<typeof textStyle>;
}
/** An inline run of `text`/`hint`: a string, a styled `text` or a `link`. */
export type ContentKitInline = string | ContentKitTextShape | z.infer<typeof LinkSchema>;

/** An inline run (a string, `text` or `link`). */
export const inline: z.ZodType<ContentKitInline> = z.lazy(() =>
  z.union([z.string(), LinkSchema, TextSchema]),
);

export const TextSchema: z.ZodType<ContentKitTextShape> = z
  .object({
    type: z.literal('text'),
    text: z.string().optional().describe('plain text (never HTML); or give `children`'),
    children: z.array(inline).optional().describe('inline runs: strings, styled `text`, `link`'),
    style: textStyle.optional().describe('`default`, `bold`, `italic`, `strikethrough` or `code`'),
  })
  .strict()
  .refine((t) => (t.text === undefined) !== (t.children === undefined), {
    message: '`text` needs exactly one of `text` (a string) or `children` (inline runs)',
  })
  .describe('Text with styles and links.');

/** `text`. @example <text style="bold">Hi</text> */
export const element = defineElement({
  type: 'text',
  schema: TextSchema,
  group: 'Text',
  place: 'descendant',
  jsx: 'inline',
});
