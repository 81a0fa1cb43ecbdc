/** Answers that shape a new integration (from prompts or flags). */
export interface ScaffoldAnswers {
  name: string;
  title: string;
  description: string;
  organization: string;
  scopes: string[];
  visibility: 'private' | 'unlisted' | 'public';
}

/** How the new integration depends on the SDK packages (`file:` paths or versions). */
export interface SdkSpecs {
  runtime: string;
  apiClient: string;
  cli: string;
}

const yamlString = (value: string) => JSON.stringify(value);

/** `platform-manifest.yaml` of a new integration: one block, the chosen scopes. */
export function manifestTemplate(a: ScaffoldAnswers): string {
  return `# The manifest of ${a.title}. Validate it with \`platform check\`.
# Reference: \`platform manifest schema\` prints its JSON Schema.
name: ${a.name}
title: ${yamlString(a.title)}
description: ${yamlString(a.description)}
organization: ${yamlString(a.organization)}
visibility: ${a.visibility}
script: src/index.ts
# Shown in the dashboard; replace it with your own (PNG, JPEG, SVG or WebP, at most 4 MiB).
icon: assets/icon.svg
scopes:${a.scopes.length ? a.scopes.map((s) => `\n  - ${s}`).join('') : ' []'}
blocks:
  - id: counter
    title: Counter
    description: A button that counts how many times it was pressed.
`;
}

/** `assets/icon.svg`: a placeholder icon, the title's first letter on a rounded square. */
export function iconTemplate(a: ScaffoldAnswers): string {
  const letter = (a.title.trim()[0] ?? a.name[0] ?? '?')
    .toUpperCase()
    .replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  const title = a.title.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
  <title>${title}</title>
  <rect width="128" height="128" rx="28" fill="#4f46e5"/>
  <text x="64" y="86" font-family="system-ui, sans-serif" font-size="64" font-weight="600" fill="#fff" text-anchor="middle">${letter}</text>
</svg>
`;
}

/** `src/index.ts`: one component, one event handler, a fetch handler. Default export only. */
export function indexTemplate(a: ScaffoldAnswers): string {
  return `import { ContentKit, createComponent, createIntegration } from '@platform/runtime';

const { block, button, text } = ContentKit;

/** The \`counter\` block (manifest \`blocks\`): a button that counts its presses. */
const counter = createComponent<{ step?: number }, { count: number }>({
  componentId: 'counter',
  initialState: () => ({ count: 0 }),
  action: async (element, action) =>
    action.action === 'increment' ? { state: { count: element.state.count + (element.props.step ?? 1) } } : {},
  render: async (element) =>
    block(
      text(\`Count: \${element.state.count}\`, 'bold'),
      button({ label: '+1', onPress: { action: 'increment' } }),
    ),
});

/**
 * ${a.title}. The host runs the default export; other exports of this file are allowed (the
 * build leaves them out of the module workerd loads).
 */
export default createIntegration({
  components: [counter],
  events: {
    space_content_updated: async (event, context) => {
      context.logger.info(\`${a.name}: space \${event.spaceId} is now at revision \${event.revisionId}\`);
    },
  },
  // Requests to the installation's public endpoint (and every path below it).
  fetch: async (request, context) => {
    if (request.method !== 'POST') {
      return new Response('Method Not Allowed', { status: 405, headers: { allow: 'POST' } });
    }
    const body = await request.text();
    context.logger.info(\`${a.name}: received \${body.length} bytes\`);
    return Response.json({ received: true });
  },
});
`;
}

/** `test/index.test.js`: bundles like the host and posts envelopes to the default export. */
export function testTemplate(a: ScaffoldAnswers): string {
  return `// Run with \`npm test\` (node --test): offline, no host needed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundleIntegration } from '@platform/cli/bundle';
import { decodeLogsHeader, envelopeRequest, testEnvironment } from '@platform/runtime/testing';

const dir = fileURLToPath(new URL('..', import.meta.url));
const { code } = await bundleIntegration(dir, { entry: 'src/index.ts', mode: 'dev' });
const integration = (await import(\`data:text/javascript;base64,\${Buffer.from(code).toString('base64')}\`)).default;

test('logs space_content_updated', async () => {
  const event = { type: 'space_content_updated', eventId: 'evt_1', spaceId: 'space_1', revisionId: 'rev_2' };
  const response = await integration.fetch(envelopeRequest(event));
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { ok: true });
  const messages = decodeLogsHeader(response.headers.get('x-platform-logs')).map((line) => line.message);
  assert.deepEqual(messages, ['${a.name}: space space_1 is now at revision rev_2']);
});

test('the counter block increments', async () => {
  const event = { type: 'ui_render', eventId: 'evt_2', componentId: 'counter', props: { step: 2 }, state: { count: 1 }, action: { action: 'increment' } };
  const response = await integration.fetch(envelopeRequest(event));
  assert.equal(response.status, 200);
  const { state, element } = await response.json();
  assert.deepEqual(state, { count: 3 });
  assert.match(JSON.stringify(element), /Count: 3/);
});

test('the public endpoint acknowledges POST and refuses GET', async () => {
  const url = testEnvironment().integration.urls.publicEndpoint;
  const post = { type: 'fetch', eventId: 'evt_3', request: { method: 'POST', url, headers: { 'content-type': 'application/json' } } };
  const ok = await integration.fetch(envelopeRequest(post, { body: '{"hello":"world"}' }));
  assert.deepEqual(await ok.json(), { received: true });
  const get = { type: 'fetch', eventId: 'evt_4', request: { method: 'GET', url, headers: {} } };
  assert.equal((await integration.fetch(envelopeRequest(get))).status, 405);
});
`;
}

/** `package.json` of the new integration, pinned to the SDK. */
export function packageTemplate(a: ScaffoldAnswers, sdk: SdkSpecs): string {
  const pkg = {
    name: a.name,
    version: '0.1.0',
    private: true,
    description: a.description,
    type: 'module',
    scripts: {
      check: 'platform check',
      build: 'platform build',
      dev: 'platform dev',
      test: 'node --test',
      typecheck: 'tsc --noEmit',
    },
    dependencies: { '@platform/api-client': sdk.apiClient, '@platform/runtime': sdk.runtime },
    devDependencies: { '@platform/cli': sdk.cli, esbuild: '0.28.2', typescript: '5.9.3' },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** `tsconfig.json` for editors and `npm run typecheck`. */
export const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      module: 'ESNext',
      moduleResolution: 'Bundler',
      customConditions: ['source'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      isolatedModules: true,
      verbatimModuleSyntax: true,
      types: [],
      jsx: 'react-jsx',
      jsxImportSource: '@platform/runtime',
    },
    include: ['src'],
  },
  null,
  2,
)}\n`;

/** `.gitignore`: dependencies, build output, the dev host's data, secrets. */
export const GITIGNORE = 'node_modules/\ndist/\n.platform/\n.env\n.env.*\n';

/** `README.md` of the new integration. */
export function readmeTemplate(a: ScaffoldAnswers): string {
  return `# ${a.title}

${a.description}

\`\`\`sh
npm install          # links the SDK
npm test             # offline tests (node --test)
npx platform check   # manifest + bundle + boot in workerd
npx platform dev     # local host, reload on save, logs
npx platform trigger space_content_updated   # in another terminal
\`\`\`
`;
}
