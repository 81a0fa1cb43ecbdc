import { z } from 'zod';
import { IconSchema, stateKey, urlObject } from '../attributes';
import { defineElement } from '../define';

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
    options: z
      .union([z.array(SelectOptionSchema), urlObject])
      .describe('`[{ id, label, icon? }]`, or `{ url }` answering that list for `?q=<typed text>`'),
  })
  .strict()
  .describe('A drop-down with static options or options completed from a URL.');

/** `select`. @example <select state="branch" options={[{ id: 'main', label: 'main' }]} /> */
export const element = defineElement({
  type: 'select',
  schema: SelectSchema,
  group: 'Inputs',
  place: 'descendant',
  jsx: 'leaf',
  field: true,
});
