import { z } from 'zod';
import { urlObject } from '../attributes';
import { defineElement } from '../define';

export const ImageSchema = z
  .object({
    type: z.literal('image'),
    source: urlObject.describe('`{ url }` of the image'),
    alt: z.string().optional().describe('text alternative'),
    aspectRatio: z.number().positive().optional().describe('width / height, reserved before loading'),
  })
  .strict()
  .describe('An image.');

/** `image`. @example <image source={{ url: 'https://example.com/a.png' }} alt="A" /> */
export const element = defineElement({
  type: 'image',
  schema: ImageSchema,
  group: 'Media',
  place: 'descendant',
  jsx: 'leaf',
});
