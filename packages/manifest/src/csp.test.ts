import { describe, expect, it } from 'vitest';
import { cspSourceProblem, parseHostSource } from './csp.js';
import { parseManifest } from './parse.js';
import { cspDirectives } from './targets.js';
import { BASE } from './test-fixtures.js';

function issues(extra: string) {
  const result = parseManifest(BASE + extra);
  return result.ok ? result.warnings : [...result.errors, ...result.warnings];
}

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

  it('refuses what is no source expression, and what would open the policy to every host', () => {
    expect(cspSourceProblem("'unsafe-eval'")).toMatch(
      /not allowed: integration content may not turn strings/,
    );
    expect(cspSourceProblem("'strict-dynamic'")).toMatch(/not allowed/);
    expect(cspSourceProblem("'none'")).toMatch(/not allowed/);
    expect(cspSourceProblem("'nonce-abc'")).toMatch(/a nonce must be new on every response/);
    expect(cspSourceProblem("'selff'")).toMatch(/not a CSP keyword/);
    expect(cspSourceProblem('self')).toMatch(/write `"'self'"`/);
    expect(cspSourceProblem('*')).toMatch(/every host/);
    expect(cspSourceProblem('https://*')).toMatch(/every host/);
    expect(cspSourceProblem('https:')).toMatch(/every host of the scheme/);
    expect(cspSourceProblem('javascript:')).toMatch(/every host of the scheme/);
    for (const bad of ['https://exa_mple.com', 'https://a.com/x?y=1', 'https://a.com,sandbox', 'https://']) {
      expect([bad, cspSourceProblem(bad)]).toEqual([
        bad,
        expect.stringMatching(/not a CSP source expression/),
      ]);
    }
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
    expect(issues('contentSecurityPolicy:\n  script-src:\n    - cdn.example.com\n    - "*"\n')).toEqual([
      expect.objectContaining({ severity: 'error', message: expect.stringMatching(/allows every host/) }),
    ]);
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
    expect(issues("contentSecurityPolicy:\n  script-src: https://a.example 'unsafe-eval'\n")).toEqual([
      expect.objectContaining({
        path: 'contentSecurityPolicy.script-src',
        line: 8,
        column: 15,
        severity: 'error',
        message: expect.stringMatching(/^`script-src`: `'unsafe-eval'` is not allowed/),
      }),
    ]);
    expect(issues("contentSecurityPolicy:\n  frame-src: 'self'\n")).toEqual([
      expect.objectContaining({ line: 8, column: 14, message: expect.stringMatching(/write `"'self'"`/) }),
    ]);
    expect(
      issues('contentSecurityPolicy: "script-src https://a.example; sandbox allow-same-origin"\n'),
    ).toEqual([
      expect.objectContaining({
        path: 'contentSecurityPolicy',
        line: 7,
        column: 24,
        message: expect.stringMatching(/`sandbox` is not a directive a manifest may extend/),
      }),
    ]);
    expect(issues('envs:\n  dev:\n    contentSecurityPolicy:\n      img-src: "*"\n')).toEqual([
      expect.objectContaining({
        path: 'envs.dev.contentSecurityPolicy.img-src',
        line: 10,
        message: expect.stringMatching(/allows every host/),
      }),
    ]);
  });

  it('warns that frame-ancestors has no effect', () => {
    const result = parseManifest(`${BASE}contentSecurityPolicy:\n  frame-ancestors: https://a.example\n`);
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/has no effect/) }),
    ]);
  });
});
