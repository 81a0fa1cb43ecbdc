import { InvalidSecretExpressionError, MissingSecretEnvError } from './errors.js';

const EXPRESSION = /^\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*$/;

/** A secret value split into literal text and `${{ env.NAME }}` references. */
export type SecretPart = { kind: 'text'; text: string } | { kind: 'env'; name: string };

/** Result of {@link parseSecretValue}: the parts, or one-line problems (never quoting the value). */
export interface ParsedSecretValue {
  parts: SecretPart[];
  problems: string[];
}

/**
 * Splits a secret value into text and `${{ env.NAME }}` expressions (several allowed).
 *
 * @example
 * ```ts
 * parseSecretValue('Bearer ${{ env.TOKEN }}').parts;
 * // [{ kind: 'text', text: 'Bearer ' }, { kind: 'env', name: 'TOKEN' }]
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
    const match = EXPRESSION.exec(value.slice(open + 3, close));
    if (match?.[1]) parts.push({ kind: 'env', name: match[1] });
    else
      problems.push(
        `expression ${count} is not valid; the only form is \`\${{ env.NAME }}\` with NAME made of letters, digits and \`_\``,
      );
    index = close + 2;
  }
  if (index < value.length) parts.push({ kind: 'text', text: value.slice(index) });
  return { parts, problems };
}

/**
 * Resolves the manifest's `secrets` against environment variables. Environment variables are read
 * only when this is called (never while parsing). Throws {@link MissingSecretEnvError} naming every
 * missing variable at once.
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
        const envValue = env[part.name];
        if (envValue === undefined) missing.add(part.name);
        else out += envValue;
      }
    }
    resolved[name] = out;
  }
  if (missing.size > 0) throw new MissingSecretEnvError([...missing].sort());
  return resolved;
}
