import type { z } from 'zod';
import { bindRegistry, byType, type ElementDefinition } from './define';
import { ELEMENTS } from './elements';

/*
 * Everything derived from the element declarations (./elements/, one file per element): the
 * schemas by `type`, the unions, and the validators of a container's children, an `input`'s
 * `element` and a render's root.
 */

type Definition = (typeof ELEMENTS)[number];
type Output<D> = D extends { schema: infer S extends z.ZodType } ? z.output<S> : never;

/** Every element that may appear inside a block, a modal or a container. */
export type ContentKitDescendant = Output<Extract<Definition, { place: 'descendant' }>>;
/** The elements an `input` field may wrap (its `element`): those declared `field: true`. */
export type ContentKitFormElement = Output<Extract<Definition, { field: true }>>;
/** The roots: `block`, `modal`, `configuration`. */
export type ContentKitRoot = Output<Extract<Definition, { place: 'root' }>>;
/** The element `type` of every declaration (roots, descendants and inline `link`). */
export type ContentKitDeclaredType = Definition['type'];

type SchemasOf<D extends Definition> = { [E in D as E['type']]: E['schema'] };
function schemasOf<D extends Definition>(keep: (d: Definition) => d is D): SchemasOf<D> {
  return Object.fromEntries(ELEMENTS.filter(keep).map((d) => [d.type, d.schema])) as SchemasOf<D>;
}
const isDescendant = (d: Definition): d is Extract<Definition, { place: 'descendant' }> =>
  d.place === 'descendant';
const isRootOrDescendant = (d: Definition): d is Extract<Definition, { place: 'root' | 'descendant' }> =>
  d.place !== 'inline';
const isField = (d: Definition): d is Extract<Definition, { field: true }> =>
  (d as ElementDefinition).field === true;

/** Schemas of the elements allowed inside containers, by `type`. @example Object.keys(DESCENDANT_SCHEMAS) */
export const DESCENDANT_SCHEMAS = schemasOf(isDescendant);
/** Schemas of the elements an `input` field may wrap, by `type`. @example Object.keys(FORM_ELEMENT_SCHEMAS) */
export const FORM_ELEMENT_SCHEMAS = schemasOf(isField);
/** Every element schema by `type`, roots first (not `link`, which lives inside text runs). @example ELEMENT_SCHEMAS.card */
export const ELEMENT_SCHEMAS = schemasOf(isRootOrDescendant);

/** Any element allowed inside a container. @example DescendantSchema.safeParse({ type: 'divider' }) */
export const DescendantSchema = byType<ContentKitDescendant>(DESCENDANT_SCHEMAS, 'inside a container');
/** Any element an `input` field may wrap. @example FormElementSchema.safeParse({ type: 'switch', state: 'on' }) */
export const FormElementSchema = byType<ContentKitFormElement>(
  FORM_ELEMENT_SCHEMAS,
  "as an `input`'s `element`",
);
/** The element a component's `render` returns: a root or any single element. @example ElementSchema.safeParse({ type: 'block', children: [] }) */
export const ElementSchema = byType<ContentKitRoot | ContentKitDescendant>(ELEMENT_SCHEMAS, 'at the root');

bindRegistry({ descendant: DescendantSchema, field: FormElementSchema });

/**
 * `FIELD_ELEMENTS` in a description, spelled out: "`button`, `checkbox`, ... or `codeblock`".
 * @example fieldElementList(); // '`button`, `checkbox`, ... or `codeblock`'
 */
export function fieldElementList(): string {
  const names = Object.keys(FORM_ELEMENT_SCHEMAS).map((t) => `\`${t}\``);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

export { ELEMENTS };
