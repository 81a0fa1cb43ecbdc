import { z } from 'zod';
import { DynamicBindingSchema, urlObject } from '../attributes';
import { defineElement } from '../define';

export const WebframeSchema = z
  .object({
    type: z.literal('webframe'),
    source: urlObject.describe("`{ url }` of the frame content (usually the integration's public endpoint)"),
    aspectRatio: z.number().positive().optional().describe('width / height until `@webframe.resize`'),
    data: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), DynamicBindingSchema]))
      .optional()
      .describe('values posted to the frame as `{ state }` when ready and when they change'),
  })
  .strict()
  .describe('A sandboxed frame with a message bridge (ready, resize, state); see the CSP in the manifest.');

/** `webframe`. @example <webframe source={{ url: 'https://example.com/frame' }} aspectRatio={16 / 9} /> */
export const element = defineElement({
  type: 'webframe',
  schema: WebframeSchema,
  group: 'Media',
  place: 'descendant',
  jsx: 'leaf',
});
