import { z } from 'zod';
import { defineElement, descendants, LAYOUT_CONTAINER } from '../define';
import type { ContentKitDescendant } from '../registry';

/** `box`. */
export interface ContentKitBoxShape {
  type: 'box';
  grow?: number;
  children: ContentKitDescendant[];
}

export const BoxSchema: z.ZodType<ContentKitBoxShape> = z
  .object({
    type: z.literal('box'),
    grow: z.number().min(0).optional().describe('flex grow inside a stack'),
    children: descendants('elements'),
  })
  .strict()
  .describe('A plain container.');

/** `box`. @example <box grow={1}><text>Hi</text></box> */
export const element = defineElement({ type: 'box', schema: BoxSchema, ...LAYOUT_CONTAINER });
