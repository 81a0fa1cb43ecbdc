import { describe, expect, it } from 'vitest';
import { BundleError, bundleIntegration, webframePage } from './index.js';
import { tempFolder } from './test-support.js';

const folder = (files: Record<string, string>) => tempFolder('platform-webframe-', files);

/** A script serving the page `./webframe` gives it, at its public endpoint. */
const SCRIPT = `import { createIntegration } from '@platform/runtime';
import { webFrameHTML, webFrameScript } from './webframe';
export default createIntegration({
  fetch: async (request) =>
    new URL(request.url).pathname.endsWith('/script.js')
      ? new Response(webFrameScript, { headers: { 'content-type': 'application/javascript' } })
      : new Response(webFrameHTML, { headers: { 'content-type': 'text/html' } }),
});
`;

/** The browser entry: it imports a helper of its own folder, so it is bundled, not copied. */
const FRAME = `import { greet } from './greet';
document.body.dataset.frame = greet('frame');
`;

/** Runs the bundle's `fetch` in-process (the module is self-contained) and returns the page. */
async function served(code: string, path = '/'): Promise<string> {
  const mod = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as {
    default: { fetch: (request: Request) => Promise<Response> };
  };
  const { envelopeRequest } = await import('@platform/runtime/testing');
  const request = envelopeRequest(
    {
      type: 'fetch',
      eventId: 'e1',
      installationId: 'inst_1',
      request: { url: `https://c.example/p${path}`, method: 'GET', headers: {} },
    },
    {},
  );
  const response = await mod.default.fetch(request);
  return response.text();
}

describe('a webframe built as a second entry', () => {
  it('answers `./webframe` with the page, the bundled script put in place of the marker', async () => {
    const dir = folder({
      'src/index.ts': SCRIPT,
      'webframe/src/webframe.ts': FRAME,
      'webframe/src/greet.ts': "export const greet = (who: string): string => 'hello ' + who;\n",
      'webframe/public/webframe.html':
        '<!doctype html><html><body><h1>Frame</h1><!-- WEBFRAME_INTEGRATION_CODE --></body></html>',
    });
    const bundle = await bundleIntegration(dir, { mode: 'dev' });
    const page = await served(bundle.code);
    expect(page).toMatch(
      /^<!doctype html><html><body><h1>Frame<\/h1><script>[\s\S]*hello [\s\S]*<\/script><\/body><\/html>$/,
    );
    expect(page).not.toContain('WEBFRAME_INTEGRATION_CODE');
    expect(page).not.toMatch(/^import |\bexport\b/m);
    expect(await served(bundle.code, '/script.js')).toContain('dataset.frame');
  });

  it('builds a page around the script when there is no template', async () => {
    const dir = folder({ 'src/index.ts': SCRIPT, 'webframe/src/index.ts': "document.title = 'framed';\n" });
    const page = await served((await bundleIntegration(dir, { mode: 'publish' })).code);
    expect(page).toMatch(/^<!doctype html>[\s\S]*<body>\n<script>[\s\S]*framed[\s\S]*<\/script>\n<\/body>/);
  });

  it('keeps a ./webframe module on disk (the generated file) over the built entry', async () => {
    const dir = folder({
      'src/index.ts': SCRIPT,
      'src/webframe.ts': "export const webFrameHTML = 'from disk';\nexport const webFrameScript = '';\n",
      'webframe/src/webframe.ts': FRAME,
    });
    expect(await served((await bundleIntegration(dir, { mode: 'dev' })).code)).toBe('from disk');
  });

  it('names the webframe file and line when its entry does not bundle', async () => {
    const dir = folder({ 'src/index.ts': SCRIPT, 'webframe/src/webframe.ts': 'const x = ;\n' });
    const error = await bundleIntegration(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BundleError);
    expect((error as Error).message).toMatch(
      /the webframe \(webframe\/src\/webframe\.ts\) could not be bundled: webframe\/src\/webframe\.ts:1:11: /,
    );
  });

  it('escapes a closing script tag inside the code', () => {
    expect(webframePage('<body></body>', "s('</script>')")).toBe(
      "<body><script>s('<\\/script>')</script>\n</body>",
    );
  });
});
