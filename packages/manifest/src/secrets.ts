import { InvalidSecretExpressionError, MissingSecretEnvError } from './errors.js';

const EXPRESSION = /^\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*$/;
/**
 * A secret-manager reference: a quoted URI such as `"op://vault/item/field"` (a scheme, `://`, then
 * printable characters without quotes or spaces), resolved when the integration is published
 * (docs/manifest.md "Secrets").
 */
const REFERENCE = /^\s*"([a-z][a-z0-9+.-]*:\/\/[^\s"'`]+)"\s*$/i;

/**
 * A secret value split into literal text, `${{ env.NAME }}` variables and `${{ "scheme://..." }}`
 * secret-manager references.
 */
export type SecretPart =
  | { kind: 'text'; text: string }
  | { kind: 'env'; name: string }
  | { kind: 'ref'; ref: string };

/** Result of {@link parseSecretValue}: the parts, or one-line problems (never quoting the value). */
export interface ParsedSecretValue {
  parts: SecretPart[];
  problems: string[];
}

/**
 * Splits a secret value into text, `${{ env.NAME }}` expressions and `${{ "op://vault/item/field" }}`
 * references (several allowed).
 *
 * @example
 * ```ts
 * parseSecretValue('Bearer ${{ env.TOKEN }}').parts;
 * // [{ kind: 'text', text: 'Bearer ' }, { kind: 'env', name: 'TOKEN' }]
 * parseSecretValue('${{ "op://team/app/secret" }}').parts; // [{ kind: 'ref', ref: 'op://team/app/secret' }]
 * ```
 */
export function parseSecretValue(value: string): ParsedSecretValue {
  const parts: SecretPart[] = [];
  const problems: string[] = [];
  let index = 0;
  let count = 0;
  while (index < value.length) {
    const open = value.indexOf('${{', index);
    if (open < 0) break;
    count++;
    if (open > index) parts.push({ kind: 'text', text: value.slice(index, open) });
    const close = value.indexOf('}}', open + 3);
    if (close < 0) {
      problems.push(`expression ${count} is not closed; end it with \`}}\` as in \`\${{ env.NAME }}\``);
      return { parts, problems };
    }
    const inner = value.slice(open + 3, close);
    const match = EXPRESSION.exec(inner);
    const reference = REFERENCE.exec(inner);
    if (match?.[1]) parts.push({ kind: 'env', name: match[1] });
    else if (reference?.[1]) parts.push({ kind: 'ref', ref: reference[1] });
    else
      problems.push(
        `expression ${count} is not valid; write \`\${{ env.NAME }}\` (NAME made of letters, digits and \`_\`) or a secret-manager reference in double quotes, \`\${{ "op://vault/item/field" }}\``,
      );
    index = close + 2;
  }
  if (index < value.length) parts.push({ kind: 'text', text: value.slice(index) });
  return { parts, problems };
}

/**
 * Resolves the manifest's `secrets` against environment variables. Environment variables are read
 * only when this is called (never while parsing). A secret-manager reference is looked up in `env`
 * under the reference itself (`env['op://vault/item/field']`): `platform publish` resolves each
 * one and sends it there (docs/manifest.md "Secrets"). Throws {@link MissingSecretEnvError} naming
 * every missing variable and reference at once.
 *
 * @example
 * ```ts
 * // secrets: { CLIENT_ID: '${{ env.SLACK_CLIENT_ID }}' }
 * const secrets = resolveSecrets(manifest, process.env); // { CLIENT_ID: '...' }
 * ```
 */
export function resolveSecrets(
  manifest: { secrets?: Record<string, string> | undefined },
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const resolved: Record<string, string> = {};
  const missing = new Set<string>();
  for (const [name, value] of Object.entries(manifest.secrets ?? {})) {
    const { parts, problems } = parseSecretValue(value);
    if (problems.length > 0) throw new InvalidSecretExpressionError(name);
    let out = '';
    for (const part of parts) {
      if (part.kind === 'text') out += part.text;
      else {
        const key = part.kind === 'env' ? part.name : part.ref;
        const envValue = env[key];
        if (envValue === undefined) missing.add(key);
        else out += envValue;
      }
    }
    resolved[name] = out;
  }
  if (missing.size > 0) throw new MissingSecretEnvError([...missing].sort());
  return resolved;
}
