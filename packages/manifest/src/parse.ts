import { type Document, LineCounter, parseDocument, type YAMLError } from 'yaml';
import { dropEmptyOptionalKeys } from './empty-keys.js';
import { documentForEnv, envNames, unknownEnvMessage } from './envs.js';
import { checkFiles } from './files.js';
import { formatPath, type Issue, type PendingIssue } from './issues.js';
import { locate, position } from './locate.js';
import { normalizeName } from './names.js';
import { checkPublishReadiness, checkRules } from './rules.js';
import { type Manifest, manifestSchema } from './schema.js';
import { renameScopes } from './scopes.js';
import { fromZodIssues } from './zod-issues.js';

/** Options of {@link parseManifest} and `loadManifest`. */
export interface ParseOptions {
  /** Folder of the manifest: enables the checks of `icon`, `previewImages` and `script` files. */
  dir?: string;
  /** Grants the internal scopes. Only the host (for bundled integrations) or `--first-party` sets it. */
  firstParty?: boolean;
  /** Name used in messages about the whole file. Default `platform-manifest.yaml`. */
  fileName?: string;
  /**
   * Also validate the manifest as seen in this environment (`envs.<env>` applied, like
   * `manifestForEnv`); the result's `manifest` is then that variant. An undeclared name is an error.
   */
  env?: string;
}

/**
 * Outcome of validating a manifest: the typed manifest, or every error found (one pass).
 *
 * @example
 * ```ts
 * const r: ManifestResult = parseManifest(text);
 * if (!r.ok) for (const e of r.errors) console.log(e.line, e.message);
 * ```
 */
export type ManifestResult =
  | { ok: true; manifest: Manifest; warnings: Issue[] }
  | { ok: false; errors: Issue[]; warnings: Issue[] };

const YAML_MESSAGES: Record<string, string> = {
  DUPLICATE_KEY: 'this key appears twice in the same mapping; keep only one',
  MULTIPLE_DOCS: 'the manifest must hold a single YAML document; remove the extra `---` and what follows',
  TAB_AS_INDENT: 'tabs are not allowed for indentation in YAML; indent with spaces',
};

function yamlIssue(error: YAMLError, lineCounter: LineCounter, severity: Issue['severity']): Issue {
  const firstLine = error.message.split('\n')[0] ?? error.message;
  const message = YAML_MESSAGES[error.code] ?? `YAML syntax: ${firstLine}`;
  return { path: '', ...position(lineCounter, error.pos[0]), message, severity };
}

/** Messages quote user text (keys, values): keep each on one line. */
function oneLine(message: string): string {
  return message.replace(/\s*[\r\n]+\s*/g, ' ');
}

function byPosition(a: Issue, b: Issue): number {
  return a.line - b.line || a.column - b.column;
}

function dedupe(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.severity}|${i.line}|${i.column}|${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Parses and validates the text of a `platform-manifest.yaml` (synchronous). File checks (`icon`,
 * `previewImages`, `script`) run only when `options.dir` is given. Never throws on bad input.
 *
 * @example
 * ```ts
 * const result = parseManifest(readFileSync('platform-manifest.yaml', 'utf8'), { dir: '.' });
 * if (result.ok) console.log(result.manifest.name);
 * else console.error(formatIssues(result.errors, 'platform-manifest.yaml'));
 * ```
 */
export function parseManifest(text: string, options: ParseOptions = {}): ManifestResult {
  const fileName = options.fileName ?? 'platform-manifest.yaml';
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, logLevel: 'error' });
  const errors = doc.errors.map((e) => yamlIssue(e, lineCounter, 'error'));
  const warnings = doc.warnings.map((e) => yamlIssue(e, lineCounter, 'warning'));
  const fatal = doc.errors.some((e) => e.code !== 'DUPLICATE_KEY');
  if (fatal) return { ok: false, errors: errors.sort(byPosition), warnings: warnings.sort(byPosition) };
  if (doc.contents === null) {
    errors.push({
      path: '',
      line: 1,
      column: 1,
      message: `${fileName} is empty; it must be a YAML mapping with at least name, title and scopes`,
      severity: 'error',
    });
    return { ok: false, errors, warnings };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    errors.push({ path: '', line: 1, column: 1, message: `YAML: ${reason}`, severity: 'error' });
    return { ok: false, errors, warnings };
  }

  const base = validate(data, options);
  let effective = base;
  let effectiveDoc: Document = doc;
  if (base.success && options.env !== undefined) {
    const variantDoc = documentForEnv(doc, options.env);
    const known = envNames(data);
    if (!variantDoc) {
      base.pending.push({
        path: known.length ? ['envs'] : [],
        anchor: 'key',
        message: unknownEnvMessage(options.env, known),
        severity: 'error',
      });
    } else {
      // aliases resolved when `data` was built resolve the same way in the copy
      effective = validate(variantDoc.toJS({ maxAliasCount: 1000 }), options);
      effectiveDoc = variantDoc;
    }
  }
  if (effective.success) effective.pending.push(...checkPublishReadiness(effective.data, options.env));
  // issues of an environment's variant are located in its copy (whose nodes keep their ranges)
  const sources: Array<[Document, PendingIssue[]]> = [[doc, base.pending]];
  if (effective !== base) sources.push([effectiveDoc, effective.pending]);
  for (const [source, pending] of sources) {
    for (const issue of pending) {
      const located: Issue = {
        path: formatPath(issue.path),
        ...locate(source, lineCounter, issue.path, issue.anchor),
        message: oneLine(issue.message),
        severity: issue.severity,
      };
      (issue.severity === 'error' ? errors : warnings).push(located);
    }
  }
  const allErrors = dedupe(errors).sort(byPosition);
  const allWarnings = dedupe(warnings).sort(byPosition);
  if (allErrors.length > 0 || !effective.success)
    return { ok: false, errors: allErrors, warnings: allWarnings };
  return { ok: true, manifest: effective.data, warnings: allWarnings };
}

type Validated = { pending: PendingIssue[] } & ({ success: true; data: Manifest } | { success: false });

/** Schema, cross-field rules and (with a folder) files, on parsed data. */
function validate(raw: unknown, options: ParseOptions): Validated {
  // Renamed scopes are read under their new names from here on (docs/contracts.md "Scopes").
  const renamed = renameScopes(raw);
  // A name with capitals is read in lowercase (docs/manifest.md "name").
  const named = normalizeName(renamed.data);
  // An optional key with no value (`summary:` alone) counts as left out.
  const emptied = dropEmptyOptionalKeys(named.data);
  const data = emptied.data;
  const pending: PendingIssue[] = [...renamed.warnings, ...named.warnings, ...emptied.warnings];
  const parsed = manifestSchema.safeParse(data);
  if (!parsed.success) pending.push(...fromZodIssues(manifestSchema, parsed.error.issues, data));
  pending.push(...checkRules(data, { firstParty: options.firstParty ?? false }));
  if (options.dir !== undefined) pending.push(...checkFiles(data, options.dir));
  return parsed.success ? { pending, success: true, data: parsed.data } : { pending, success: false };
}
