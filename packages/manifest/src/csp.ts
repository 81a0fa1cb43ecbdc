import { isRecord } from './data.js';
import type { PathSegments } from './issues.js';
import { BARE_CSP_KEYWORDS, CSP_DIRECTIVES, cspDirectives } from './targets.js';

/**
 * Quoted keywords a manifest may add (docs/security.md "The integration's own policy"). Left out on
 * purpose: `'unsafe-eval'` (string-to-code), `'strict-dynamic'` (trusts whatever a script loads, from
 * anywhere), `'none'` (a manifest only adds sources), nonces (a manifest is static; a nonce must be new
 * on every response).
 */
const KEYWORDS = ["'self'", "'unsafe-inline'", "'unsafe-hashes'", "'wasm-unsafe-eval'", "'report-sample'"];

const REFUSED_KEYWORDS: Record<string, string> = {
  "'unsafe-eval'":
    "`'unsafe-eval'` is not allowed: integration content may not turn strings into code (`eval`, `new Function`); load the code as a script instead",
  "'strict-dynamic'":
    "`'strict-dynamic'` is not allowed: it trusts every script a script loads, from anywhere; list the hosts instead",
  "'none'":
    "`'none'` is not allowed: the manifest adds sources to the host's policy; remove the directive instead",
};

/** Schemes a scheme-only source may name: local data and blank documents, never a whole network scheme. */
const LOCAL_SCHEMES = ['data:', 'blob:', 'mediastream:', 'about:'];
/** Network schemes a scheme-only source may name: every host of the scheme (a warning, {@link cspSourceWarning}). */
const NETWORK_SCHEMES = ['https:', 'http:', 'wss:', 'ws:'];

const SCHEME = /^[a-z][a-z0-9+.-]*$/i;
const HOST = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*\.?$/i;
const PATH = /^(\/[A-Za-z0-9\-._~%!$&'()*+=:@]*)*$/;
const HASH = /^'sha(256|384|512)-[A-Za-z0-9+/_-]+={0,2}'$/;

/** How to write a keyword that YAML stripped of its quotes (a warning: it is read as the keyword). */
function quoteHint(word: string): string {
  return `\`${word}\` is read as the keyword \`'${word}'\`; write it with its single quotes, \`"'${word}'"\` (YAML removes the quotes of \`'${word}'\`), since in a policy a bare word is a host name`;
}

/**
 * Why a source that the host accepts is still worth a warning: it allows every host (`*`,
 * `https://*`, a network scheme alone). Accepted since integration content has an origin of its own
 * and runs sandboxed, in an opaque origin, while the host's API takes bearer tokens only (no
 * cookie), so what such content can reach is what any web page can (docs/manifest.md
 * "contentSecurityPolicy"). `undefined` for any other source.
 *
 * @example
 * ```ts
 * cspSourceWarning('*'); // '`*` allows every host; ...'
 * cspSourceWarning('https://plausible.io'); // undefined
 * ```
 */
export function cspSourceWarning(source: string): string | undefined {
  const scheme = NETWORK_SCHEMES.includes(source.toLowerCase());
  if (!scheme && parseHostSource(source)?.host !== '*') return undefined;
  return `\`${source}\` allows every host; accepted (integration content runs sandboxed on its own origin, and the host's API takes no cookie), but listing the hosts (e.g. \`https://*.example.com\`) keeps the content from loading from or sending to anywhere else`;
}

/** A host-source split into its parts, or why it is not one. */
interface HostSource {
  scheme?: string;
  host: string;
  port?: string;
  path: string;
}

/**
 * Splits a CSP host-source (`[scheme://]host[:port][/path]`); `undefined` when it is not one.
 *
 * @example
 * ```ts
 * parseHostSource('https://*.example.com:8443/js/'); // { scheme: 'https', host: '*.example.com', port: '8443', path: '/js/' }
 * ```
 */
export function parseHostSource(source: string): HostSource | undefined {
  const match = /^(?:([^:/]+):\/\/)?([^:/]+)(?::(\d+|\*))?(\/.*)?$/.exec(source);
  if (!match) return undefined;
  const [, scheme, host = '', port, path = ''] = match;
  if (scheme !== undefined && !SCHEME.test(scheme)) return undefined;
  if (host !== '*' && !HOST.test(host)) return undefined;
  if (!PATH.test(path)) return undefined;
  return {
    ...(scheme ? { scheme: scheme.toLowerCase() } : {}),
    host: host.toLowerCase(),
    ...(port ? { port } : {}),
    path,
  };
}

/**
 * Why `source` may not be added to a directive of the host's policy, or `undefined` when it may: a CSP
 * source expression (host, `data:`/`blob:`, a quoted keyword or hash) that does not open the policy to
 * every host. docs/security.md "The integration's own policy".
 *
 * @example
 * ```ts
 * cspSourceProblem('https://plausible.io'); // undefined
 * cspSourceProblem("'unsafe-eval'"); // "`'unsafe-eval'` is not allowed: ..."
 * ```
 */
export function cspSourceProblem(source: string): string | undefined {
  const lower = source.toLowerCase();
  if (source.startsWith("'")) {
    if (KEYWORDS.includes(lower) || HASH.test(source)) return undefined;
    if (REFUSED_KEYWORDS[lower]) return REFUSED_KEYWORDS[lower];
    if (lower.startsWith("'nonce-")) {
      return "`nonce-` sources are not allowed: a manifest is static, and a nonce must be new on every response; use a hash (`'sha256-...'`) or a host";
    }
    return `\`${source}\` is not a CSP keyword; keywords: ${[...KEYWORDS].map((k) => `\`${k}\``).join(', ')}, or a hash \`'sha256-<base64>'\``;
  }
  if (BARE_CSP_KEYWORDS.includes(lower)) return cspSourceProblem(`'${lower}'`);
  // a scheme alone: local data, or every host of a network scheme (a warning, cspSourceWarning)
  if (/^[a-z][a-z0-9+.-]*:$/i.test(source)) {
    return LOCAL_SCHEMES.includes(lower) || NETWORK_SCHEMES.includes(lower)
      ? undefined
      : `\`${source}\` is not a scheme a manifest may add; use a local one (${LOCAL_SCHEMES.join(', ')}) or a host (\`https://cdn.example.com\`)`;
  }
  const host = parseHostSource(source);
  if (!host) {
    return `\`${source}\` is not a CSP source expression; write a host (\`https://cdn.example.com\`, \`*.example.com\`, \`https://example.com:8443/js/\`), \`data:\`, \`blob:\`, a quoted keyword such as \`'self'\`, or a hash \`'sha256-<base64>'\``;
  }
  return undefined;
}

type Report = (path: PathSegments, message: string, severity?: 'error' | 'warning') => void;

/**
 * Checks a manifest `contentSecurityPolicy` (either form) beyond its shape: known directives, valid
 * and allowed sources, and a warning for `frame-ancestors` (which the host leaves open). Reports at
 * `path` (the key) or at `path` + directive.
 *
 * @example
 * ```ts
 * checkContentSecurityPolicy(data.contentSecurityPolicy, ['contentSecurityPolicy'], report);
 * ```
 */
export function checkContentSecurityPolicy(value: unknown, path: PathSegments, report: Report): void {
  if (typeof value !== 'string' && !isRecord(value)) return;
  const keyed = isRecord(value);
  const policy = keyed
    ? Object.fromEntries(
        Object.entries(value).flatMap(([directive, sources]): Array<[string, string]> => {
          if (typeof sources === 'string') return [[directive, sources]];
          if (Array.isArray(sources) && sources.every((s) => typeof s === 'string'))
            return [[directive, sources.join(' ')]];
          return [];
        }),
      )
    : value;
  const directives = cspDirectives(policy);
  const raw = cspDirectives(policy, { raw: true });
  for (const [directive, sources] of Object.entries(directives)) {
    const at = keyed ? [...path, directive] : path;
    if (!(CSP_DIRECTIVES as readonly string[]).includes(directive)) {
      // The keyed form's unknown keys are reported by the schema.
      if (!keyed) {
        report(
          at,
          `\`${directive}\` is not a directive a manifest may extend; directives: ${CSP_DIRECTIVES.join(', ')}`,
        );
      }
      continue;
    }
    for (const source of sources) {
      const problem = cspSourceProblem(source);
      if (problem) report(at, `\`${directive}\`: ${problem}`);
      const warning = problem ? undefined : cspSourceWarning(source);
      if (warning) report(at, `\`${directive}\`: ${warning}`, 'warning');
    }
    for (const word of raw[directive] ?? []) {
      if (BARE_CSP_KEYWORDS.includes(word.toLowerCase()) && !cspSourceProblem(`'${word.toLowerCase()}'`)) {
        report(at, `\`${directive}\`: ${quoteHint(word.toLowerCase())}`, 'warning');
      }
    }
    if (directive === 'frame-ancestors') {
      report(
        at,
        '`frame-ancestors` has no effect: the host lets any page frame integration content (the dashboard and the sites that show its webframes); remove it',
        'warning',
      );
    }
  }
}
