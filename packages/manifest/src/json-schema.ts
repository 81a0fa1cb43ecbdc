import { z } from 'zod';
import { manifestSchema } from './schema.js';

/** Where the committed schema file is published (its `$id`). */
export const MANIFEST_SCHEMA_ID = 'https://platform.local/schemas/platform-manifest.schema.json';

/**
 * The JSON Schema (draft-07, what yaml-language-server understands best) of
 * `platform-manifest.yaml`, generated from the zod schema (its input side: keys with a default, like
 * `visibility`, are optional). Cross-field rules (unique block ids,
 * `default` in `enum`, `required` names, files) are only checked by `parseManifest`.
 *
 * @example
 * ```ts
 * writeFileSync('manifest.schema.json', JSON.stringify(manifestJsonSchema(), null, 2));
 * // in the YAML file: # yaml-language-server: $schema=./manifest.schema.json
 * ```
 */
export function manifestJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(manifestSchema, { target: 'draft-7', unrepresentable: 'any', io: 'input' });
  return { $id: MANIFEST_SCHEMA_ID, title: 'platform-manifest.yaml', ...schema };
}
