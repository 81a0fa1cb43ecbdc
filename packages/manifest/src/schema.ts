import { z } from 'zod';
import { CATEGORIES, SCOPES, VISIBILITIES } from './scopes.js';
import { contentSecurityPolicySchema, envNameSchema, TARGETS } from './targets.js';

/** `name`: lowercase slug, at most 64 characters. */
export const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Names of configuration properties. */
export const PROPERTY_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Names of secrets (environment-variable style). */
export const SECRET_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `completion_url` / `callback_url`: a path served by the integration, below its public endpoint. */
export const INTEGRATION_PATH_PATTERN = /^\/(?!\/)\S*$/;

const text = (what: string) => z.string().min(1, { error: `${what} must not be empty` });

const integrationPath = (what: string) =>
  z.string().regex(INTEGRATION_PATH_PATTERN, {
    error: `${what} must be a path served by the integration, starting with \`/\` (for example \`/oauth\`)`,
  });

const propertyBase = {
  title: text('the property `title`').describe('Label shown to the user next to the field.'),
  description: z.string().describe('Help text shown under the field.'),
};

/** A `string` configuration property (docs/contracts.md "Manifest"). */
export const stringPropertySchema = z
  .strictObject({
    type: z.literal('string').describe('Free text, or a dropdown with `enum` / `completion_url`.'),
    ...propertyBase,
    default: z.string().optional().describe('Initial value; must be one of `enum` when `enum` is set.'),
    enum: z
      .array(z.string())
      .min(1, { error: '`enum` must list at least one value' })
      .optional()
      .describe('Fixed list of values the user picks from.'),
    completion_url: integrationPath('`completion_url`')
      .optional()
      .describe('Path of the integration that returns the dropdown options, e.g. `/channels`.'),
  })
  .describe('A text value.');

/**
 * A configuration property of the `type` whose value, and initial value, is a `value` (a number, a
 * boolean): the field is `field`, the property means `meaning`.
 */
function valuePropertySchema<T extends string, V extends z.ZodType>(
  type: T,
  field: string,
  value: V,
  meaning: string,
) {
  return z
    .strictObject({
      type: z.literal(type).describe(field),
      ...propertyBase,
      default: value.optional().describe('Initial value.'),
    })
    .describe(meaning);
}

/** A `number` configuration property (docs/contracts.md "Manifest"). */
export const numberPropertySchema = valuePropertySchema(
  'number',
  'A number.',
  z.number(),
  'A numeric value.',
);

/** A `boolean` configuration property (docs/contracts.md "Manifest"). */
export const booleanPropertySchema = valuePropertySchema(
  'boolean',
  'A checkbox.',
  z.boolean(),
  'An on/off value.',
);

/** A `button` configuration property that starts an OAuth connection (docs/contracts.md "Manifest"). */
export const buttonPropertySchema = z
  .strictObject({
    type: z.literal('button').describe('A button that starts an OAuth connection.'),
    ...propertyBase,
    button_text: text('`button_text`').describe('Label of the button.'),
    callback_url: integrationPath('`callback_url`').describe(
      'Path of the integration that starts the OAuth flow, e.g. `/oauth`.',
    ),
  })
  .describe('A button starting an OAuth flow; satisfied once the flow saved credentials.');

/** Any configuration property, discriminated by `type`. */
export const propertySchema = z.discriminatedUnion('type', [
  stringPropertySchema,
  numberPropertySchema,
  booleanPropertySchema,
  buttonPropertySchema,
]);

/** The settings of one installation place (`configurations.account`, `.site`, `.space`). */
export const configurationPlaceSchema = z
  .strictObject({
    properties: z
      .record(
        z.string().regex(PROPERTY_NAME_PATTERN, {
          error: 'property names use letters, digits, `_` and `-`, and start with a letter or `_`',
        }),
        propertySchema,
      )
      .optional()
      .describe('One entry per setting, keyed by the configuration key it is stored under.'),
    required: z.array(z.string()).optional().describe('Names of properties that must be set.'),
    componentId: text('`componentId`')
      .optional()
      .describe(
        'A component of the script that renders this configuration screen itself (ContentKit; docs/contentkit.md). Its `properties` are still the stored keys.',
      ),
  })
  .describe('Installation settings of one place: `properties`, a `componentId`, or both.');

/** The manifest `configurations` object (docs/contracts.md "Manifest"). */
export const configurationsSchema = z
  .strictObject({
    account: configurationPlaceSchema.optional().describe('Settings of the organization-wide installation.'),
    space: configurationPlaceSchema.optional().describe('Settings of a space installation.'),
    site: configurationPlaceSchema.optional().describe('Settings of a site installation.'),
  })
  .describe('Installation settings, one object per place (account, site, space).');

const visibilitySchema = z
  .enum(VISIBILITIES)
  .describe('`private` (owning organization only), `unlisted` (install link only) or `public`.');

/** `blocks[].urlUnfurl` patterns: an http(s) URL prefix with optional `*` / `**` wildcards. */
export const URL_PATTERN_RE = /^https?:\/\/[^\s/]+(\/\S*)?$/;

const manifestShape = {
  name: z
    .string()
    .max(64, { error: '`name` must be at most 64 characters long' })
    .regex(NAME_PATTERN, {
      error:
        '`name` must be a lowercase slug: letters a-z, digits and single hyphens (e.g. `my-integration`)',
    })
    .describe('Unique identifier of the integration: a lowercase slug, at most 64 characters.'),
  title: text('`title`').describe('Name shown in the platform.'),
  description: z.string().default('').describe('Short description (missing or empty is a warning).'),
  summary: z
    .string()
    .max(2048, { error: '`summary` must be at most 2048 characters long' })
    .optional()
    .describe('Markdown shown on the installation page, at most 2048 characters.'),
  organization: text('`organization`')
    .optional()
    .describe(
      'Id or subdomain of the owning organization. Optional here: `platform publish --organization <id>` or `envs.<name>.organization` may supply it; publishing needs one.',
    ),
  visibility: visibilitySchema
    .default('private')
    .describe(
      '`private` (owning organization only; the default), `unlisted` (install link only) or `public`.',
    ),
  scopes: z.array(z.enum(SCOPES)).describe('Permissions the integration requests.'),
  target: z
    .enum(TARGETS)
    .optional()
    .describe(
      'Where the integration can be installed: `space`, `site`, `organization` or `all` (default `all`).',
    ),
  contentSecurityPolicy: contentSecurityPolicySchema.optional(),
  script: text('`script`')
    .optional()
    .describe('Entry file calling `createIntegration()`, relative to the manifest.'),
  blocks: z
    .array(
      z.strictObject({
        id: text('the block `id`').describe('Id of the component (`componentId`) the block renders.'),
        title: text('the block `title`').describe('Title shown in the Command + / menu.'),
        description: z
          .string()
          .optional()
          .describe('Description shown in the Command + / menu (missing or empty is a warning).'),
        icon: text('the block `icon`')
          .optional()
          .describe('Icon file of the block, relative to the manifest.'),
        markdown: z
          .strictObject({
            codeblock: text('`markdown.codeblock`').describe(
              'Language of the Markdown code block the block converts to and from (e.g. `mermaid`).',
            ),
            body: text('`markdown.body`').describe(
              'The block prop holding the code block body (e.g. `content`).',
            ),
          })
          .optional()
          .describe(
            'Makes the block round-trip as a Markdown code block (Git sync, Markdown import/export).',
          ),
        urlUnfurl: z
          .array(
            z.string().regex(URL_PATTERN_RE, {
              error:
                'a `urlUnfurl` pattern is an http(s) URL prefix, `*` matching one path segment and `**` any rest (e.g. `https://github.com/**`)',
            }),
          )
          .min(1, { error: '`urlUnfurl` must list at least one URL pattern' })
          .optional()
          .describe(
            'URL patterns: pasting a matching URL in the editor creates this block with the prop `url` (`*` one segment, `**` any rest).',
          ),
      }),
    )
    .optional()
    .describe('Components offered in the Command + / menu.'),
  contentSources: z
    .array(
      z.strictObject({
        id: z
          .string()
          .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, {
            error:
              'a content source `id` is a lowercase slug (e.g. `releases`), the `sourceId` of `createContentSource`',
          })
          .describe('Id of the source: the `sourceId` given to `createContentSource`.'),
        title: text('the content source `title`').describe('Name of the source shown to the space owner.'),
        description: z.string().optional().describe('What the source generates.'),
      }),
    )
    .optional()
    .describe(
      'Sources of generated pages (`createContentSource`, docs/content-sources.md); they need `space:content:write`.',
    ),
  categories: z
    .array(
      z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, {
        error: 'a category is a lowercase word or slug (e.g. `analytics`)',
      }),
    )
    .optional()
    .describe(
      `Marketplace categories: ${CATEGORIES.map((c) => `\`${c}\``).join(', ')}; another is a warning and is listed as written.`,
    ),
  icon: text('`icon`').optional().describe('Icon file, relative to the manifest.'),
  previewImages: z
    .array(text('a preview image path'))
    .optional()
    .describe('PNG or JPEG files for the installation page, relative to the manifest; 1600x800 recommended.'),
  externalLinks: z
    .array(
      z.strictObject({
        label: text('the link `label`').describe('Text of the link.'),
        url: z.url({ protocol: /^https?$/ }).describe('An http(s) URL.'),
      }),
    )
    .optional()
    .describe('Links shown on the installation page.'),
  configurations: configurationsSchema.optional(),
  secrets: z
    .record(
      z.string().regex(SECRET_NAME_PATTERN, {
        error: 'secret names use letters, digits and `_`, and do not start with a digit',
      }),
      z.string(),
    )
    .optional()
    // biome-ignore lint/suspicious/noTemplateCurlyInString: documents the expression syntax
    .describe('Secret name -> value, usually an expression like `${{ env.CLIENT_ID }}`.'),
};

/** Keys an `envs.<name>` entry may override. */
const ENV_KEYS = [
  'title',
  'description',
  'summary',
  'organization',
  'visibility',
  'icon',
  'previewImages',
  'externalLinks',
  'categories',
  'target',
  'contentSecurityPolicy',
  'secrets',
] as const;
/** An environment overrides only what it names: no defaults apply inside `envs.<name>`. */
const envShape = { ...manifestShape, description: z.string(), visibility: visibilitySchema };
const ENV_OVERRIDES = Object.fromEntries(ENV_KEYS.map((key) => [key, envShape[key].optional()])) as {
  [K in (typeof ENV_KEYS)[number]]: z.ZodOptional<(typeof envShape)[K]>;
};

/**
 * The schema of `platform-manifest.yaml` (docs/contracts.md "Manifest"): the single source of truth for the
 * `Manifest` type and the published JSON Schema. Rules a JSON Schema cannot express (unique block
 * ids, `default` within `enum`, `required` names, secret expressions, files) live in `rules.ts`
 * and `files.ts`.
 *
 * @example
 * ```ts
 * manifestSchema.safeParse({ name: 'x' }).success; // false
 * ```
 */
export const manifestSchema = z
  .strictObject({
    ...manifestShape,
    envs: z
      .record(envNameSchema, z.strictObject(ENV_OVERRIDES))
      .optional()
      .describe(
        "Per-environment overrides: `manifestForEnv(manifest, name)` replaces each top-level key with the environment's (e.g. `organization`, `secrets`).",
      ),
  })
  .describe('The manifest of an integration (platform-manifest.yaml).');

/**
 * A validated manifest.
 *
 * @example
 * ```ts
 * const title: string = manifest.title;
 * ```
 */
export type Manifest = z.infer<typeof manifestSchema>;
/** A validated configuration property. */
export type ConfigurationProperty = z.infer<typeof propertySchema>;
/** The validated settings of one installation place. */
export type ConfigurationPlace = z.infer<typeof configurationPlaceSchema>;
/** Installation places that can carry settings. */
export type ConfigurationPlaceName = keyof z.infer<typeof configurationsSchema>;
