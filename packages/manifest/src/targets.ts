import { z } from 'zod';

/**
 * Where an integration can be installed (`target`). `all` (the default) allows every place.
 *
 * @example
 * ```ts
 * TARGETS.includes('site'); // true
 * ```
 */
export const TARGETS = ['space', 'site', 'organization', 'all'] as const;

/**
 * Content-Security-Policy directives an integration may extend (`contentSecurityPolicy`): they
 * apply to its webframes and to the public pages its scripts are injected in.
 */
export const CSP_DIRECTIVES = [
  'default-src',
  'script-src',
  'style-src',
  'img-src',
  'font-src',
  'connect-src',
  'frame-src',
  'child-src',
  'media-src',
  'worker-src',
  'form-action',
  'frame-ancestors',
] as const;

const sourceText = z
  .string()
  .min(1, { error: 'a directive lists at least one source (e.g. `https://plausible.io`)' })
  .refine((value) => !/[\r\n]\s*\S+-src\s/.test(value.trimEnd()), {
    error: 'one directive per key: put each directive under its own key',
  });

/** A directive's sources: one text (space- or newline-separated) or a YAML list of sources. */
const sources = z.union([
  sourceText,
  z
    .array(z.string().min(1, { error: 'a source must not be empty' }))
    .min(1, { error: 'a directive lists at least one source (e.g. `https://plausible.io`)' }),
]);

/**
 * `contentSecurityPolicy`: directive -> sources (space- or newline-separated, a trailing `;` allowed,
 * or a YAML list), or one policy string `script-src https://a; img-src https://b`.
 */
export const contentSecurityPolicySchema = z
  .union([
    z.string().min(1, { error: '`contentSecurityPolicy` must not be empty' }),
    z.strictObject(
      Object.fromEntries(CSP_DIRECTIVES.map((d) => [d, sources.optional()])) as {
        [K in (typeof CSP_DIRECTIVES)[number]]: z.ZodOptional<typeof sources>;
      },
    ),
  ])
  .describe(
    'Sources allowed in the integration’s webframes and injected scripts, per CSP directive (e.g. `script-src: https://plausible.io`).',
  );

/** Names of `envs` entries. */
export const envNameSchema = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, {
  error: 'environment names use lowercase letters, digits and `-` (e.g. `staging`, `dev-ada`)',
});

/**
 * CSP keywords as words: YAML strips the single quotes of `'self'`, and manifests written for the
 * platform this one models often leave them out (`style-src: unsafe-inline; self;`). A bare word
 * would be a host named `self`, which no one means; {@link cspDirectives} reads it as the keyword
 * and `platform check` warns (docs/manifest.md "contentSecurityPolicy").
 */
export const BARE_CSP_KEYWORDS = [
  'self',
  'unsafe-inline',
  'unsafe-hashes',
  'wasm-unsafe-eval',
  'report-sample',
  'none',
  'unsafe-eval',
  'strict-dynamic',
];

/**
 * The policy as directive -> list of sources, whatever form the manifest used; a keyword written
 * without its quotes ({@link BARE_CSP_KEYWORDS}) is the keyword, quoted (`raw: true` keeps it as written).
 *
 * @example
 * ```ts
 * cspDirectives({ 'script-src': 'https://plausible.io;\n' }); // { 'script-src': ['https://plausible.io'] }
 * cspDirectives({ 'style-src': 'unsafe-inline' }); // { 'style-src': ["'unsafe-inline'"] }
 * ```
 */
export function cspDirectives(
  policy: z.infer<typeof contentSecurityPolicySchema> | undefined,
  options: { raw?: boolean } = {},
): Record<string, string[]> {
  if (policy === undefined) return {};
  const out: Record<string, string[]> = {};
  const add = (directive: string, value: string | readonly string[]) => {
    const list = (typeof value === 'string' ? value : value.join(' '))
      .split(/[\s;]+/)
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => (!options.raw && BARE_CSP_KEYWORDS.includes(s.toLowerCase()) ? `'${s.toLowerCase()}'` : s));
    if (list.length) out[directive] = [...(out[directive] ?? []), ...list];
  };
  if (typeof policy === 'string') {
    for (const part of policy.split(';')) {
      const [directive, ...rest] = part.trim().split(/\s+/);
      if (directive) add(directive, rest.join(' '));
    }
  } else {
    for (const [directive, value] of Object.entries(policy)) if (value) add(directive, value);
  }
  return out;
}
