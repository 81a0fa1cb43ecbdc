import { z } from 'zod';
import type { ContentKitDescendant, ContentKitFormElement } from './registry';

/*
 * What one ContentKit element declares (its file in ./elements/), and the helpers element files
 * share. The registry (./registry.ts) derives everything else from these declarations.
 */

/** The sections of docs/contentkit.md "Elements", in order. */
export const DOC_GROUPS = ['Layout', 'Text', 'Inputs', 'Media', 'Overlays'] as const;
/** A section of docs/contentkit.md "Elements". @example const g: DocGroup = 'Media'; */
export type DocGroup = (typeof DOC_GROUPS)[number];

/**
 * Where an element may appear: `root` only as what `render` returns (`block`, `modal`,
 * `configuration`), `descendant` inside containers (and at the root), `inline` only inside
 * `text`/`hint` runs (`link`).
 */
export type ElementPlace = 'root' | 'descendant' | 'inline';

/**
 * How JSX builds the element from its children: `container` (children are elements), `inline`
 * (children are text runs: strings, `<text>`, `<link>`), `leaf` (no children).
 */
export type JsxKind = 'container' | 'inline' | 'leaf';

/** One ContentKit element: everything the schema, docs, JSX runtime and dashboard derive from. */
export interface ElementDefinition<T extends string = string, S extends z.ZodType = z.ZodType> {
  /** The element's `type`, also its JSX tag name. */
  type: T;
  /** Validates the element (its description is the docs' first line). */
  schema: S;
  /** Section of docs/contentkit.md. */
  group: DocGroup;
  place: ElementPlace;
  jsx: JsxKind;
  /** May be the `element` of a labelled `input` field. */
  field?: boolean;
  /** Heading suffix in the docs, e.g. `(inside \`text\` and \`hint\`)`. */
  docsNote?: string;
  /** Elements with several forms (`input`): one docs table per form. */
  forms?: readonly z.ZodType[];
}

/**
 * Declares an element; the literal types are kept so that the registry can derive the union.
 *
 * @example
 * export const divider = defineElement({ type: 'divider', schema: DividerSchema, group: 'Layout', place: 'descendant', jsx: 'leaf' });
 */
export function defineElement<
  const T extends string,
  S extends z.ZodType,
  const D extends ElementDefinition<T, S>,
>(definition: D & ElementDefinition<T, S>): D {
  return definition;
}

/**
 * What a layout container among the descendants declares besides its type and schema.
 * @example export const element = defineElement({ type: 'vstack', schema: VStackSchema, ...LAYOUT_CONTAINER });
 */
export const LAYOUT_CONTAINER = { group: 'Layout', place: 'descendant', jsx: 'container' } as const;

/**
 * What a form field of the `Inputs` group declares besides its type and schema: a leaf among the
 * descendants, allowed where a field element is.
 * @example export const element = defineElement({ type: 'switch', schema: SwitchSchema, ...INPUT_FIELD });
 */
export const INPUT_FIELD = { group: 'Inputs', place: 'descendant', jsx: 'leaf', field: true } as const;

/** The schemas the registry builds from every element (bound once it has them all). */
interface RegistrySchemas {
  descendant: z.ZodType<ContentKitDescendant>;
  field: z.ZodType<ContentKitFormElement>;
}
let bound: RegistrySchemas | undefined;
/**
 * Called by the registry once every element is declared: element files and the registry depend
 * on each other, so element files reach these schemas lazily.
 * @example bindRegistry({ descendant: DescendantSchema, field: FormElementSchema });
 */
export function bindRegistry(schemas: RegistrySchemas): void {
  bound = schemas;
}
function registry(): RegistrySchemas {
  if (!bound) throw new Error('the ContentKit registry is not loaded (import ./registry)');
  return bound;
}

/**
 * Any element allowed inside a container (not a root), resolved lazily from the registry.
 * @example z.array(descendant())
 */
export const descendant = (): z.ZodType<ContentKitDescendant> => z.lazy(() => registry().descendant);
/**
 * Stands for the list of `field` elements in a description (the docs and the JSON Schema replace
 * it with the names, which an element file cannot know when it loads).
 */
export const FIELD_ELEMENTS = '{field elements}';

/**
 * Any element declared with `field: true` (an `input`'s `element`), resolved lazily.
 * @example z.object({ element: fieldElement() })
 */
export const fieldElement = (): z.ZodType<ContentKitFormElement> => z.lazy(() => registry().field);

/**
 * `children` of a container: elements but the roots.
 * @example z.object({ type: z.literal('box'), children: descendants('elements') })
 */
export function descendants(what: string) {
  return z.array(descendant()).describe(what);
}

/**
 * Parses `value` with `schema`, reporting its issues (paths kept) on `ctx`.
 * @example z.custom().superRefine((v, ctx) => forwardIssues(TextSchema, v, ctx));
 */
export function forwardIssues(schema: z.ZodType, value: unknown, ctx: z.RefinementCtx): void {
  const result = schema.safeParse(value);
  if (result.success) return;
  for (const issue of result.error.issues) {
    ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  }
}

/**
 * Picks the schema by the element's `type`, so an error names the attribute that is wrong rather
 * than listing every element a union tried.
 *
 * @example byType<ContentKitFormElement>(FORM_ELEMENT_SCHEMAS, "as an `input`'s `element`")
 */
export function byType<Out>(schemas: Record<string, z.ZodType>, where: string): z.ZodType<Out> {
  return z.custom<Out>().superRefine((value, ctx) => {
    const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
    const schema = typeof type === 'string' && Object.hasOwn(schemas, type) ? schemas[type] : undefined;
    if (!schema) {
      ctx.addIssue({
        code: 'custom',
        path: typeof type === 'string' ? ['type'] : [],
        message:
          typeof type === 'string'
            ? `unknown element type "${type}" ${where}; expected one of ${Object.keys(schemas).join(', ')}`
            : 'expected a ContentKit element ({ "type": ... })',
      });
      return;
    }
    forwardIssues(schema, value, ctx);
  });
}

/** One alternative of {@link choice}: its name in the JSON Schema, its schema, and when it applies. */
export interface Alternative {
  id: string;
  schema: z.ZodType;
  when(value: unknown): boolean;
}
/** The alternatives of every {@link choice}, for the docs and the JSON Schema. */
export const CHOICE_ALTERNATIVES = new Map<unknown, readonly Alternative[]>();

/**
 * A value of one of several shapes, told apart by `when` (the first that applies), so that an error
 * names the wrong attribute of the shape meant instead of every shape a union tried. The docs and
 * the JSON Schema show it as the list of alternatives.
 *
 * @example choice([{ id: 'button', schema: ButtonSchema, when: (v) => hasType(v) }, { id: 'blockControl', schema: ButtonControlSchema, when: () => true }])
 */
export function choice<Out>(alternatives: readonly Alternative[]): z.ZodType<Out> {
  const schema = z.custom<Out>().superRefine((value, ctx) => {
    const picked = alternatives.find((a) => a.when(value)) ?? alternatives[alternatives.length - 1];
    if (picked) forwardIssues(picked.schema, value, ctx);
  });
  CHOICE_ALTERNATIVES.set(schema, alternatives);
  return schema;
}
