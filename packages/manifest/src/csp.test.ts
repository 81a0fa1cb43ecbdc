import { describe, expect, it } from 'vitest';
import { cspSourceProblem, cspSourceWarning, parseHostSource } from './csp.js';
import { parseManifest } from './parse.js';
import { cspDirectives } from './targets.js';
import { BASE, issueLike, issuesOf } from './test-fixtures.js';

describe('contentSecurityPolicy sources', () => {
  it('accepts hosts, local schemes, quoted keywords and hashes', () => {
    for (const source of [
      'https://plausible.io',
      'plausible.io',
      '*.example.com',
      'https://cdn.example.com:8443/js/',
      'http://127.0.0.1:4173',
      'https://example.com:*',
      'data:',
      'blob:',
      'about:',
      "'self'",
      "'unsafe-inline'",
      "'wasm-unsafe-eval'",
      "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
    ]) {
      expect([source, cspSourceProblem(source)]).toEqual([source, undefined]);
    }
  });

  it('refuses what is no source expression or a refused keyword', () => {
    expect(cspSourceProblem("'unsafe-eval'")).toMatch(
      /not allowed: integration content may not turn strings/,
    );
    expect(cspSourceProblem("'strict-dynamic'")).toMatch(/not allowed/);
    expect(cspSourceProblem("'none'")).toMatch(/not allowed/);
    expect(cspSourceProblem("'nonce-abc'")).toMatch(/a nonce must be new on every response/);
    expect(cspSourceProblem("'selff'")).toMatch(/not a CSP keyword/);
    // a bare keyword is read as the keyword: fine for `self`, refused for `unsafe-eval`
    expect(cspSourceProblem('self')).toBeUndefined();
    expect(cspSourceProblem('unsafe-eval')).toMatch(/not allowed/);
    expect(cspSourceProblem('javascript:')).toMatch(/not a scheme a manifest may add/);
    for (const bad of ['https://exa_mple.com', 'https://a.com/x?y=1', 'https://a.com,sandbox', 'https://']) {
      expect([bad, cspSourceProblem(bad)]).toEqual([
        bad,
        expect.stringMatching(/not a CSP source expression/),
      ]);
    }
  });

  it('accepts every-host sources (`*`, `https://*`, `https:`) with a warning, since content runs sandboxed on its own origin', () => {
    for (const source of ['*', 'https://*', 'https:', 'wss:']) {
      expect([source, cspSourceProblem(source)]).toEqual([source, undefined]);
      expect(cspSourceWarning(source)).toMatch(/allows every host; accepted .*sandboxed on its own origin/);
    }
    expect(cspSourceWarning('https://*.example.com')).toBeUndefined();
    expect(cspSourceWarning('data:')).toBeUndefined();
    const result = parseManifest(`${BASE}contentSecurityPolicy:\n  connect-src: "*"\n`);
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      issueLike({ path: 'contentSecurityPolicy.connect-src', severity: 'warning' }),
    ]);
    expect(cspDirectives(result.ok ? result.manifest.contentSecurityPolicy : undefined)).toEqual({
      'connect-src': ['*'],
    });
  });

  it('reads keywords written without their quotes as the keywords, with a warning', () => {
    const result = parseManifest(
      `${BASE}contentSecurityPolicy:\n  style-src: |\n    unsafe-inline;\n    self;\n    blob:;\n`,
    );
    expect(result.ok).toBe(true);
    expect(result.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(
        /`style-src`: `unsafe-inline` is read as the keyword `'unsafe-inline'`; write it with its single quotes/,
      ),
      expect.stringMatching(/`style-src`: `self` is read as the keyword `'self'`/),
    ]);
    expect(cspDirectives(result.ok ? result.manifest.contentSecurityPolicy : undefined)).toEqual({
      'style-src': ["'unsafe-inline'", "'self'", 'blob:'],
    });
    expect(issuesOf('contentSecurityPolicy:\n  script-src: unsafe-eval\n')).toEqual([
      issueLike({ severity: 'error', message: /`'unsafe-eval'` is not allowed/ }),
    ]);
  });

  it('takes a directive as a YAML list of sources, and `child-src`', () => {
    const result = parseManifest(
      `${BASE}contentSecurityPolicy:\n  script-src:\n    - cdn.example.com\n    - https://*.example.com\n  child-src: https://frames.example.com\n`,
    );
    expect(result.ok && result.warnings).toEqual([]);
    expect(cspDirectives(result.ok ? result.manifest.contentSecurityPolicy : undefined)).toEqual({
      'script-src': ['cdn.example.com', 'https://*.example.com'],
      'child-src': ['https://frames.example.com'],
    });
    // Each listed source is checked like one in a text.
    expect(
      issuesOf('contentSecurityPolicy:\n  script-src:\n    - cdn.example.com\n    - "javascript:"\n'),
    ).toEqual([issueLike({ severity: 'error', message: /not a scheme a manifest may add/ })]);
  });

  it('splits host sources', () => {
    expect(parseHostSource('HTTPS://*.Example.com:8443/js/')).toEqual({
      scheme: 'https',
      host: '*.example.com',
      port: '8443',
      path: '/js/',
    });
    expect(parseHostSource('plausible.io')).toEqual({ host: 'plausible.io', path: '' });
    expect(parseHostSource('a b')).toBeUndefined();
  });

  it('reports bad sources at their directive, with line and column, in both forms and in envs', () => {
    expect(issuesOf("contentSecurityPolicy:\n  script-src: https://a.example 'unsafe-eval'\n")).toEqual([
      issueLike({
        path: 'contentSecurityPolicy.script-src',
        line: 8,
        column: 15,
        severity: 'error',
        message: /^`script-src`: `'unsafe-eval'` is not allowed/,
      }),
    ]);
    expect(issuesOf("contentSecurityPolicy:\n  frame-src: 'self'\n")).toEqual([
      issueLike({ line: 8, column: 14, severity: 'warning', message: /`"'self'"`/ }),
    ]);
    expect(
      issuesOf('contentSecurityPolicy: "script-src https://a.example; sandbox allow-same-origin"\n'),
    ).toEqual([
      issueLike({
        path: 'contentSecurityPolicy',
        line: 7,
        column: 24,
        message: /`sandbox` is not a directive a manifest may extend/,
      }),
    ]);
    expect(issuesOf('envs:\n  dev:\n    contentSecurityPolicy:\n      img-src: "javascript:"\n')).toEqual([
      issueLike({
        path: 'envs.dev.contentSecurityPolicy.img-src',
        line: 10,
        message: /not a scheme a manifest may add/,
      }),
    ]);
  });

  it('warns that frame-ancestors has no effect', () => {
    const result = parseManifest(`${BASE}contentSecurityPolicy:\n  frame-ancestors: https://a.example\n`);
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([issueLike({ severity: 'warning', message: /has no effect/ })]);
  });
});
