import { z } from 'zod';
import { defineElement, descendants } from '../define';
import type { ContentKitDescendant } from '../registry';
import { ButtonSchema } from './button';

/** `block`. */
export interface ContentKitBlockShape {
  type: 'block';
  controls?: z.infer<typeof ButtonSchema>[];
  children: ContentKitDescendant[];
}

export const BlockSchema: z.ZodType<ContentKitBlockShape> = z
  .object({
    type: z.literal('block'),
    controls: z.array(ButtonSchema).optional().describe('buttons of the block toolbar (editor)'),
    children: descendants('elements'),
  })
  .strict()
  .describe('The root of a block.');

/** `block`. @example <block><text>Hi</text></block> */
export const element = defineElement({
  type: 'block',
  schema: BlockSchema,
  group: 'Layout',
  place: 'root',
  jsx: 'container',
});
