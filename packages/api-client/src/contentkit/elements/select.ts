import { z } from 'zod';
import { disabled, IconSchema, onValueChange, stateKey, UrlPartsSchema, url } from '../attributes';
import { defineElement, INPUT_FIELD } from '../define';

export const SelectOptionSchema = z
  .object({
    id: z.string().describe('value stored in the state'),
    label: z.string().describe('text shown'),
    icon: IconSchema.optional().describe('icon before the label'),
  })
  .strict();

export const SelectSchema = z
  .object({
    type: z.literal('select'),
    state: stateKey,
    label: z.string().optional().describe('visible label'),
    initialValue: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe('selected id(s)'),
    placeholder: z.string().optional().describe('shown while nothing is selected'),
    multiple: z.boolean().optional().describe('several options may be selected'),
    acceptInput: z
      .boolean()
      .optional()
      .describe('the user may also type a value that is not an option (stored as typed)'),
    disabled,
    onValueChange,
    options: z
      .union([z.array(SelectOptionSchema), z.object({ url: z.union([url, UrlPartsSchema]) }).strict()])
      .describe(
        '`[{ id, label, icon? }]`, or `{ url }` answering that list for `?q=<typed text>`; `url` is an http(s) URL or [UrlParts](#urlparts)',
      ),
  })
  .strict()
  .describe('A drop-down with static options or options completed from a URL.');

/** `select`. @example <select state="branch" options={[{ id: 'main', label: 'main' }]} /> */
export const element = defineElement({ type: 'select', schema: SelectSchema, ...INPUT_FIELD });
