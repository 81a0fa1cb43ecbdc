import { z } from 'zod';
import { defineElement, descendants } from '../define';
import type { ContentKitDescendant } from '../registry';
import { ButtonSchema } from './button';

/** `modal`. */
export interface ContentKitModalShape {
  type: 'modal';
  title?: string;
  subtitle?: string;
  size?: 'medium' | 'large' | 'xlarge' | 'fullscreen';
  returnValue?: Record<string, unknown>;
  submit?: z.infer<typeof ButtonSchema>;
  children: ContentKitDescendant[];
}

export const ModalSchema: z.ZodType<ContentKitModalShape> = z
  .object({
    type: z.literal('modal'),
    title: z.string().optional().describe('heading'),
    subtitle: z.string().optional().describe('line under the heading'),
    size: z.enum(['medium', 'large', 'xlarge', 'fullscreen']).optional().describe('`medium` by default'),
    returnValue: z.record(z.string(), z.unknown()).optional().describe('sent to the opener on close'),
    submit: ButtonSchema.optional().describe('primary button of the footer'),
    children: descendants('elements'),
  })
  .strict()
  .describe('The root of a component opened with `@ui.modal.open` (Escape closes it).');

/** `modal`. @example <modal title="Preview"><text>Hi</text></modal> */
export const element = defineElement({
  type: 'modal',
  schema: ModalSchema,
  group: 'Overlays',
  place: 'root',
  jsx: 'container',
});
