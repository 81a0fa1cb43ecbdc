import type { z } from 'zod';
import { CHOICE_ALTERNATIVES, FIELD_ELEMENTS } from './define';
import {
  ActionSchema,
  BUILTIN_ACTIONS,
  ButtonControlSchema,
  ButtonSchema,
  ConfirmSchema,
  DOC_GROUPS,
  DynamicBindingSchema,
  ELEMENTS,
  fieldElementList,
  ICONS,
  IconSchema,
  LinkSchema,
  RenderContextSchema,
  RenderOutputSchema,
  SelectOptionSchema,
  UrlPartsSchema,
} from './schema';

/*
 * docs/contentkit.md, generated from the element declarations (./elements/): `npm run
 * gen:contentkit` writes it, and generated.test.ts fails when the committed file is stale.
 */

/** Where `npm run gen:contentkit` writes the reference. */
export const CONTENTKIT_DOCS_PATH = 'docs/contentkit.md';

interface Def {
  type: string;
  [key: string]: unknown;
}
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const descriptionOf = (schema: unknown): string =>
  ((schema as { description?: string }).description ?? '').replace(FIELD_ELEMENTS, fieldElementList());

/** Sub-schemas shown by name (with their own section) instead of expanded. */
const NAMED = new Map<unknown, string>([
  [defOf(ActionSchema), '[Action](#actions)'],
  [defOf(IconSchema), '[Icon](#icons)'],
  [defOf(ConfirmSchema), '[Confirm](#confirm)'],
  [defOf(SelectOptionSchema), '[SelectOption](#selectoption)'],
  [defOf(DynamicBindingSchema), '`{ $state }`'],
  [defOf(LinkSchema), '`link`'],
  [defOf(ButtonSchema), '[`button`](#button)'],
  [defOf(ButtonControlSchema), '[BlockControl](#blockcontrol)'],
  [defOf(UrlPartsSchema), '[UrlParts](#urlparts)'],
]);

function typeOf(schema: unknown, depth = 0): string {
  const def = defOf(schema);
  const named = NAMED.get(def);
  if (named) return named;
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'unknown':
      return def.type;
    case 'literal':
      return (def.values as unknown[]).map((v) => JSON.stringify(v)).join(' \\| ');
    case 'enum':
      return Object.values(def.entries as Record<string, string>)
        .map((v) => `\`${v}\``)
        .join(' \\| ');
    case 'optional':
      return typeOf(def.innerType, depth);
    case 'array': {
      const element = typeOf(def.element, depth);
      return element.includes(' \\| ') ? `(${element})[]` : `${element}[]`;
    }
    case 'union':
      return (def.options as unknown[]).map((o) => typeOf(o, depth)).join(' \\| ');
    case 'record':
      return `{ [key]: ${typeOf(def.valueType, depth)} }`;
    case 'lazy':
      return depth > 0 ? 'element' : typeOf((def.getter as () => unknown)(), depth + 1);
    case 'custom': {
      const alternatives = CHOICE_ALTERNATIVES.get(schema as z.ZodType);
      return alternatives ? alternatives.map((a) => typeOf(a.schema, depth)).join(' \\| ') : 'element';
    }
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      return `{ ${Object.entries(shape)
        .map(([k, v]) => `${k}${defOf(v).type === 'optional' ? '?' : ''}: ${typeOf(v, depth + 1)}`)
        .join(', ')} }`;
    }
    default:
      return def.type;
  }
}

function table(shape: Record<string, unknown>, skip: string[] = []): string {
  const rows = Object.entries(shape)
    .filter(([key]) => !skip.includes(key))
    .map(([key, value]) => {
      const required = defOf(value).type === 'optional' ? '' : 'yes';
      const type =
        key === 'children' && typeOf(value).startsWith('element')
          ? `${typeOf(value)} (elements but the roots \`block\`/\`modal\`/\`configuration\`)`
          : typeOf(value);
      return `| \`${key}\` | ${type} | ${required} | ${descriptionOf(value)} |`;
    });
  if (rows.length === 0) return '_No attributes._\n';
  return ['| attribute | type | required | description |', '|---|---|---|---|', ...rows].join('\n') + '\n';
}

const INTRO = `# ContentKit

> Generated from the element files \`packages/api-client/src/contentkit/elements/*.ts\` by
> \`npm run gen:contentkit\`; \`generated.test.ts\` fails when this file is stale. Do not edit by hand.

ContentKit is the JSON UI a component's \`render\` returns. It is specified once, as a zod schema in
\`@platform/api-client\`:

- **types** (\`ContentKitElement\`, \`ContentKitBlock\`, \`ContentKitIcon\`, ...) are derived from it and
  exported by \`@platform/api-client\` (type-only: zod never reaches an integration bundle);
- **builders** (\`ContentKit.card(...)\`) and **typed JSX** (\`<card title="..." />\`; a wrong attribute is a
  compile error) are in \`@platform/runtime\`;
- **the host validates every render output** (\`@platform/api-client/contentkit-schema\`): a bad tree is
  answered \`502 invalid_render_output\` naming the element path, e.g.
  \`element.children[2].onPress: expected an action ({ "action": "name", ...payload })\`;
- **the dashboard** draws every element (configuration screens, the editor, modals).

## Where each element is declared

Each element is one file, \`packages/api-client/src/contentkit/elements/<type>.ts\`: its zod schema,
its section of this page, where it may appear (a root, inside containers, or inline in text runs),
how JSX builds it (container, inline runs or leaf) and whether it may be an \`input\`'s \`element\`.
From that list derive the element types, the host's validation, this page, the JSON Schema of a
render output ([\`docs/schemas/contentkit.schema.json\`](schemas/contentkit.schema.json), for editors
and other languages; the cross-field rules, such as a button's label or icon, are the host's) and the
JSX tags. The dashboard draws each element with a renderer from a map typed by element type, so an
element without a renderer does not compile. **A new element is two files**: its declaration
(\`elements/<type>.ts\`) and the renderer file that draws it
(\`packages/dashboard/src/app/contentkit/renderers/\`: the function and its entry in that file's map);
then \`npm run gen:contentkit\`, which lists the new file in \`elements/index.ts\` (generated; a test
fails while a file of the folder is missing from it).

## Forms ported integrations use

Integrations written for the upstream SDK render a few forms the first version of this schema refused;
they are accepted as such, for every integration:

- a block's \`controls\` may be written without \`type\` (\`{ label, icon, onPress }\`, [BlockControl](#blockcontrol));
- \`disabled\` on \`textinput\`, \`select\`, \`switch\`, \`checkbox\` and \`radio\`: drawn, not changeable;
- \`onValueChange\` on \`select\`, \`switch\`, \`checkbox\` and \`radio\`: dispatched after the state
  has taken the new value, so its \`{ $state }\` bindings read it (a \`select\` the user types into
  dispatches when the value is committed, on change or blur, not on each key);
- \`select\`'s \`acceptInput\`: the options become suggestions and a typed value is stored as typed
  (options from a URL always allowed typing);
- \`select\`'s \`options.url\` as [UrlParts](#urlparts) \`{ host, pathname, query }\` (what integrations
  build from their public endpoint), query values bound to state. The scheme is not part of it: the
  dashboard uses \`https\`, or \`http\` for a loopback host, so a local host works without TLS.
- JSX fragments (\`<>…</>\`): inside a container the fragment's children take its place, as if written
  there; alone (a render's root, an \`input\`'s \`element\`) a fragment is a \`vstack\` of them, since
  ContentKit has no fragment element.

Every element tag the ported corpus uses is declared; none was missing.
`;

const COMPONENT_MODEL = `## Component model

\`createComponent({ componentId, initialState?, action?, render })\`:

- \`initialState\`: a value, or \`(props, renderContext, context) => state\` (\`context\`: the integration's,
  as handlers get it); \`{}\` when omitted. Used when the host sends no state.
- \`action(element, action, context)\` returns \`{ state?, props? }\`: \`state\` replaces the state, \`props\`
  the props (the editor saves them on the block), \`{}\` keeps both.
- \`render(element, context)\` returns an element. \`element\` has \`props\`, \`state\`, \`context\` (below),
  \`dynamicState(key)\` (\`{ "$state": key }\`: an input, code block or webframe value bound to state
  without a round trip) and \`setCache({ maxAge })\`.
- A configuration screen (\`context.type\` \`configuration\`) also finds in its props the configuration
  it edits, from the invocation's environment: \`installation: { configuration }\`, and
  \`spaceInstallation\` / \`siteInstallation\` (each \`{ configuration }\`) for a space or site installation.
  They replace props sent under those names and are not returned in the answer's \`props\`.
- Inputs (\`textinput\`, \`select\`, \`switch\`, \`checkbox\`, \`radio\`, editable \`codeblock\`) name a \`state\`
  key: the renderer keeps their value in the component's state and sends it with the next action
  (the legacy \`input\` sends \`action.inputs[id]\`).

### Render context

\`element.context\` says where the component renders:

${table((RenderContextSchema as unknown as { shape: Record<string, unknown> }).shape)}
Other keys the host sends (\`spaceId\`, \`siteId\`, ...) are passed through.

### Configuration screens

A component named by \`configurations.<place>.componentId\` renders with \`context.type\`
\`configuration\`. The runtime gives it its installation as props, over any the host sent under the
same names (those may be stale):
\`element.props.installation\`, and \`spaceInstallation\` / \`siteInstallation\` when the environment has
them (the shapes of \`context.environment\`), so \`initialState: (props) => ({ token:
props.installation.configuration.token })\` works. They are left out of the answer's \`props\`: the
configuration never travels back to the page. A screen usually returns a \`configuration\` root
whose fields are labelled inputs: \`<input label="Token" hint="..." element={<textinput state="token" />} />\`.

### Render output

The runtime answers a component render event with:

${table((RenderOutputSchema as unknown as { shape: Record<string, unknown> }).shape)}
\`cache.maxAge\` (from \`element.setCache\`) lets the host answer the same render (installation, bundle,
component, props, state, context; never one with an action) from memory for that many seconds.
`;

/**
 * The markdown of docs/contentkit.md, generated from the schema.
 *
 * @example
 * writeFileSync('docs/contentkit.md', contentKitReference());
 */
export function contentKitReference(): string {
  const parts: string[] = [INTRO];
  parts.push('## Elements\n');
  for (const group of DOC_GROUPS) {
    parts.push(`### ${group}\n`);
    for (const element of ELEMENTS.filter((e) => e.group === group)) {
      const forms: readonly z.ZodType[] = 'forms' in element ? element.forms : [element.schema];
      const tables = forms.map((form) => {
        const shape = (form as unknown as { shape: Record<string, unknown> }).shape;
        return `${forms.length > 1 ? `${descriptionOf(form)}\n\n` : ''}${table(shape, ['type'])}`;
      });
      const heading = `#### \`${element.type}\`${'docsNote' in element ? ` ${element.docsNote}` : ''}`;
      parts.push(`${heading}\n\n${descriptionOf(element.schema)}\n\n${tables.join('\n')}`);
    }
  }
  parts.push(`### Confirm\n\n${table(ConfirmSchema.shape)}`);
  parts.push(`### SelectOption\n\n${table(SelectOptionSchema.shape)}`);
  parts.push(`### UrlParts\n\n${UrlPartsSchema.description ?? ''}\n\n${table(UrlPartsSchema.shape)}`);
  parts.push(
    `### BlockControl\n\n${descriptionOf(ButtonControlSchema)}\n\n${table(ButtonControlSchema.shape)}`,
  );
  parts.push(
    `## Actions\n\nAn action is \`{ "action": "<name>", ...payload }\`. Names starting with \`@\` are built-in and handled by the platform; any other name is dispatched to the component's \`action\` handler (payload included).\n\n| built-in action | what it does |\n|---|---|\n${Object.entries(
      BUILTIN_ACTIONS,
    )
      .map(([name, what]) => `| \`${name}\` | ${what} |`)
      .join('\n')}\n`,
  );
  parts.push(`## Icons\n\n${ICONS.map((i) => `\`${i}\``).join(', ')}\n`);
  parts.push(COMPONENT_MODEL);
  return `${parts.join('\n').trimEnd()}\n`;
}
