import { z } from 'zod';
import { CHOICE_ALTERNATIVES, FIELD_ELEMENTS } from './define';
import { inline } from './elements/text';
import { DescendantSchema, ELEMENTS, ElementSchema, FormElementSchema, fieldElementList } from './registry';
import { RenderOutputSchema } from './schema';

/** Where `npm run gen:contentkit` writes the JSON Schema of a render output. */
export const CONTENTKIT_SCHEMA_PATH = 'docs/schemas/contentkit.schema.json';

/** Validators by type (zod customs) that the JSON Schema spells as a choice of element definitions. */
const CHOICES: Array<[z.ZodType, string, (d: (typeof ELEMENTS)[number]) => boolean]> = [
  [DescendantSchema, 'descendant', (d) => d.place === 'descendant'],
  [FormElementSchema, 'field', (d) => 'field' in d && d.field === true],
  [ElementSchema, 'element', (d) => d.place !== 'inline'],
];

/**
 * The JSON Schema (2020-12) of a component's render answer, derived from the element declarations:
 * one `$defs` entry per element (and per form of an element with several), and `descendant` / `field` / `element` as the choices of them.
 * Validation messages and the cross-field rules (a button's label or icon, `text`'s one of
 * `text`/`children`, built-in action payloads) are the host's zod schema's; this file is for
 * editors and other languages.
 *
 * @example
 * writeFileSync(CONTENTKIT_SCHEMA_PATH, `${JSON.stringify(contentKitJsonSchema(), null, 2)}\n`);
 */
export function contentKitJsonSchema(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  const forms = new Map<unknown, string[]>();
  for (const element of ELEMENTS) {
    registry.add(element.schema, { id: element.type });
    if (!('forms' in element)) continue;
    const ids = element.forms.map((form, i) => {
      registry.add(form, { id: `${element.type}-form-${i + 1}` });
      return `${element.type}-form-${i + 1}`;
    });
    forms.set(element.schema, ids);
  }
  for (const [schema, id] of CHOICES) registry.add(schema, { id });
  // The inline run (string, `text` or `link`) of `text` and `hint`: named, so both refer to one definition.
  registry.add(inline, { id: 'inline' });
  for (const alternatives of CHOICE_ALTERNATIVES.values()) {
    for (const a of alternatives) if (!registry.has(a.schema)) registry.add(a.schema, { id: a.id });
  }
  registry.add(RenderOutputSchema, { id: 'renderOutput' });
  const { schemas } = z.toJSONSchema(registry, {
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/$defs/${id}`,
    override: (ctx) => {
      const choice = CHOICES.find(([schema]) => (schema as unknown) === ctx.zodSchema);
      if (choice) {
        const refs = ELEMENTS.filter(choice[2]).map((d) => ({ $ref: `#/$defs/${d.type}` }));
        Object.assign(ctx.jsonSchema, { oneOf: refs });
      }
      const alternatives = CHOICE_ALTERNATIVES.get(ctx.zodSchema);
      if (alternatives) {
        Object.assign(ctx.jsonSchema, { anyOf: alternatives.map((a) => ({ $ref: `#/$defs/${a.id}` })) });
      }
      const formIds = forms.get(ctx.zodSchema);
      if (formIds) Object.assign(ctx.jsonSchema, { oneOf: formIds.map((id) => ({ $ref: `#/$defs/${id}` })) });
      if (typeof ctx.jsonSchema.description === 'string') {
        ctx.jsonSchema.description = ctx.jsonSchema.description.replace(FIELD_ELEMENTS, fieldElementList());
      }
    },
  });
  const defs: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _s, $id: _i, ...rest } = schema as Record<string, unknown>;
    defs[id] = rest;
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://platform.example/schemas/contentkit.schema.json',
    title: 'ContentKit render output',
    description:
      'What a component answers to a render event: `{ element, state, props?, cache? }` (docs/contentkit.md).',
    $ref: '#/$defs/renderOutput',
    $defs: defs,
  };
}
