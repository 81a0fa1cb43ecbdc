import { z } from 'zod';
import { choice, defineElement, descendants } from '../define';
import type { ContentKitDescendant } from '../registry';
import { ButtonControlSchema, ButtonSchema } from './button';

/** A control of the block toolbar: a `button`, or its attributes without `type`. */
export type ContentKitBlockControlShape = z.infer<typeof ButtonSchema> | z.infer<typeof ButtonControlSchema>;

/** `block`. */
export interface ContentKitBlockShape {
  type: 'block';
  controls?: ContentKitBlockControlShape[];
  children: ContentKitDescendant[];
}

const hasType = (value: unknown) => typeof value === 'object' && value !== null && 'type' in value;
const BlockControlSchema = choice<ContentKitBlockControlShape>([
  { id: 'button', schema: ButtonSchema, when: hasType },
  { id: 'blockControl', schema: ButtonControlSchema, when: () => true },
]);

export const BlockSchema: z.ZodType<ContentKitBlockShape> = z
  .object({
    type: z.literal('block'),
    controls: z
      .array(BlockControlSchema)
      .optional()
      .describe('buttons of the block toolbar (editor); `type: "button"` may be left out'),
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
