import { describe, expect, it } from 'vitest';
import { contentPolicy } from './content-policy.js';

const origins = { content: 'http://127.0.0.1:8081/', operator: ['http://127.0.0.1:8080'] };

/** The policy as directive -> sources, and its sandbox part. */
function parse(policy: string): { sandbox: string; directives: Record<string, string[]> } {
  const [sandbox = '', ...rest] = policy.split('; ');
  return {
    sandbox,
    directives: Object.fromEntries(
      rest.map((part) => {
        const [name = '', ...sources] = part.split(' ');
        return [name, sources];
      }),
    ),
  };
}

describe('contentPolicy', () => {
  it('is the sandbox and the host baseline when the manifest adds nothing', () => {
    const { sandbox, directives } = parse(contentPolicy(undefined, origins));
    expect(sandbox).toBe('sandbox allow-scripts allow-forms allow-popups');
    expect(directives['script-src']).toEqual(['http://127.0.0.1:8081', "'unsafe-inline'"]);
    expect(directives['connect-src']).toEqual(['http://127.0.0.1:8081']);
    expect(directives['default-src']).toEqual(['http://127.0.0.1:8081']);
    expect(directives['frame-ancestors']).toBeUndefined();
  });

  it('adds the manifest sources per directive, both forms; default-src to every fetch directive', () => {
    const keyed = parse(
      contentPolicy(
        { 'script-src': 'https://plausible.io;\n', 'connect-src': 'plausible.io', 'frame-src': "'self'" },
        origins,
      ),
    ).directives;
    expect(keyed['script-src']).toEqual(['http://127.0.0.1:8081', "'unsafe-inline'", 'https://plausible.io']);
    expect(keyed['connect-src']).toEqual(['http://127.0.0.1:8081', 'plausible.io']);
    expect(keyed['frame-src']).toEqual(['http://127.0.0.1:8081']);
    const text = parse(
      contentPolicy('default-src https://cdn.example; img-src https://img.example', origins),
    );
    expect(text.directives['img-src']).toEqual([
      'http://127.0.0.1:8081',
      'data:',
      'blob:',
      'https://cdn.example',
      'https://img.example',
    ]);
    expect(text.directives['script-src']).toContain('https://cdn.example');
    expect(text.directives['form-action']).toEqual(['http://127.0.0.1:8081']);
  });

  it('never removes the sandbox nor names the operator origin by name, whatever the manifest holds', () => {
    const policy = contentPolicy(
      "script-src 'unsafe-eval' * https: http://127.0.0.1:8080 http://localhost:8080 127.0.0.1:* https://ok.example; sandbox allow-same-origin; frame-ancestors https://a.example",
      origins,
    );
    const { sandbox, directives } = parse(policy);
    expect(sandbox).toBe('sandbox allow-scripts allow-forms allow-popups');
    expect(policy).not.toContain('allow-same-origin');
    // Every-host sources stay (docs/manifest.md "contentSecurityPolicy": sandboxed content on its own
    // origin reaches the API as any web page does); the operator's origin named outright does not.
    expect(directives['script-src']).toEqual([
      'http://127.0.0.1:8081',
      "'unsafe-inline'",
      '*',
      'https:',
      'https://ok.example',
    ]);
    expect(directives['frame-ancestors']).toBeUndefined();
    expect(directives.sandbox).toBeUndefined();
  });

  it('treats a source without port as the default port of its scheme', () => {
    const onHttps = { content: 'https://content.example.net', operator: ['https://docs.example.net'] };
    const { directives } = parse(
      contentPolicy(
        { 'img-src': 'docs.example.net https://*.example.net:8443 https://cdn.example.net' },
        onHttps,
      ),
    );
    expect(directives['img-src']).toEqual([
      'https://content.example.net',
      'data:',
      'blob:',
      'https://*.example.net:8443',
      'https://cdn.example.net',
    ]);
  });
});
