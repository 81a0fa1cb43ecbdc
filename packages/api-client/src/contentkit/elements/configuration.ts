import { z } from 'zod';
import { defineElement, descendants } from '../define';
import type { ContentKitDescendant } from '../registry';

/** `configuration`. */
export interface ContentKitConfigurationShape {
  type: 'configuration';
  children: ContentKitDescendant[];
}

/*
 * `configuration` is accepted at the root in every render context: the validator checks an answer
 * without the request it answers, and outside a configuration screen the dashboard draws it as a
 * plain container (docs/contentkit.md, `configuration`).
 */
export const ConfigurationSchema: z.ZodType<ContentKitConfigurationShape> = z
  .object({
    type: z.literal('configuration'),
    children: descendants('elements'),
  })
  .strict()
  .describe(
    'The root of a configuration screen (render context `configuration`), drawn like `block`. Accepted in other contexts too (validation does not depend on the context), where it is a plain container like `block`.',
  );

/** `configuration`. @example <configuration><input label="Token" element={<textinput state="token" />} /></configuration> */
export const element = defineElement({
  type: 'configuration',
  schema: ConfigurationSchema,
  group: 'Layout',
  place: 'root',
  jsx: 'container',
});
