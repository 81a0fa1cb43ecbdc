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
 * The policy as directive -> list of sources, whatever form the manifest used.
 *
 * @example
 * ```ts
 * cspDirectives({ 'script-src': 'https://plausible.io;\n' }); // { 'script-src': ['https://plausible.io'] }
 * ```
 */
export function cspDirectives(
  policy: z.infer<typeof contentSecurityPolicySchema> | undefined,
): Record<string, string[]> {
  if (policy === undefined) return {};
  const out: Record<string, string[]> = {};
  const add = (directive: string, value: string | readonly string[]) => {
    const list = (typeof value === 'string' ? value : value.join(' '))
      .split(/[\s;]+/)
      .map((s) => s.trim())
      .filter(Boolean);
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
