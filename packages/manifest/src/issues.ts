/**
 * One problem found in a manifest, located in its source text.
 *
 * @example
 * ```ts
 * const issue: Issue = { path: 'visibility', line: 4, column: 13, message: '...', severity: 'error' };
 * ```
 */
export interface Issue {
  /** Dotted path of the offending field; list items as `[n]`, e.g. `blocks[0].id`. `''` is the whole file. */
  path: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
  /** One line saying what is wrong and how to fix it. */
  message: string;
  severity: 'error' | 'warning';
  /** The file `line` and `column` are in, when it is not the manifest (e.g. the script: `src/index.ts`). */
  file?: string;
}

/** Segments of a path into the parsed data. */
export type PathSegments = ReadonlyArray<string | number>;

/**
 * Where an issue points: the value at `path`, the key naming it, or (for a missing key) the mapping
 * that lacks it (`path` then names the missing key).
 */
export type IssueAnchor = 'value' | 'key' | 'parent';

/** An issue before it is located in the source text. */
export interface PendingIssue {
  path: PathSegments;
  anchor: IssueAnchor;
  message: string;
  severity: 'error' | 'warning';
}

/**
 * Renders path segments: `['blocks', 0, 'id']` -> `blocks[0].id`.
 *
 * @example
 * ```ts
 * formatPath(['configurations', 'site', 'properties', 'url', 'type']); // 'configurations.site.properties.url.type'
 * ```
 */
export function formatPath(path: PathSegments): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

const ansi = (code: number) => (s: string) => `\u001b[${code}m${s}\u001b[39m`;
const red = ansi(31);
const yellow = ansi(33);
const dim = (s: string) => `\u001b[2m${s}\u001b[22m`;

/**
 * Formats issues like a compiler, one per line: `platform-manifest.yaml:12:5 error: message`.
 * Errors come before warnings; each group is sorted by position.
 *
 * @example
 * ```ts
 * console.error(formatIssues(result.errors, 'platform-manifest.yaml', { color: false }));
 * ```
 */
export function formatIssues(
  issues: readonly Issue[],
  fileName: string,
  options: { color?: boolean } = {},
): string {
  const color = options.color ?? false;
  const rank = (i: Issue) => (i.severity === 'error' ? 0 : 1);
  const sorted = [...issues].sort((a, b) => rank(a) - rank(b) || a.line - b.line || a.column - b.column);
  return sorted
    .map((issue) => {
      const where = `${issue.file ?? fileName}:${issue.line}:${issue.column}`;
      const label = issue.severity === 'error' ? 'error' : 'warning';
      if (!color) return `${where} ${label}: ${issue.message}`;
      const painted = issue.severity === 'error' ? red(label) : yellow(label);
      return `${dim(where)} ${painted}: ${issue.message}`;
    })
    .join('\n');
}
