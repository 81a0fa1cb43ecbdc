import { z } from 'zod';
import { ActionSchema, IconSchema, urlObject } from '../attributes';
import { defineElement, descendants, LAYOUT_CONTAINER } from '../define';
import type { ContentKitDescendant } from '../registry';
import { ButtonSchema } from './button';
import { ImageSchema } from './image';

/** `card`. */
export interface ContentKitCardShape {
  type: 'card';
  title?: string;
  hint?: string;
  icon?: z.infer<typeof IconSchema> | { url: string } | z.infer<typeof ImageSchema>;
  onPress?: z.infer<typeof ActionSchema>;
  buttons?: z.infer<typeof ButtonSchema>[];
  children: ContentKitDescendant[];
}

export const CardSchema: z.ZodType<ContentKitCardShape> = z
  .object({
    type: z.literal('card'),
    title: z.string().optional().describe('heading'),
    hint: z.string().optional().describe('line under the title'),
    icon: z
      .union([IconSchema, urlObject, ImageSchema], {
        error:
          'expected an icon name (docs/contentkit.md "Icons"), `{ url }` of an http(s) image, or an `image` element whose `source.url` is an http(s) URL',
      })
      .optional()
      .describe('icon name, `{ url }` of an image, or an `image` element'),
    onPress: ActionSchema.optional().describe('makes the whole card pressable'),
    buttons: z.array(ButtonSchema).optional().describe('buttons in the card header'),
    children: descendants('body elements'),
  })
  .strict()
  .describe('A bordered card with a header (title, hint, icon, buttons).');

/** `card`. @example <card title="PR #1" icon="github"><text>open</text></card> */
export const element = defineElement({ type: 'card', schema: CardSchema, ...LAYOUT_CONTAINER });
