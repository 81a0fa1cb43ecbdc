import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { expect, it } from 'vitest';

// ConsoleCapture turns its AsyncLocalStorage off between invocations on Node.js (logs.ts). In workerd with
// `nodejs_compat` the storage exists but its `disable()` throws "not implemented": this runs the capture in
// real workerd (Miniflare) and checks that invocations still answer and capture their own lines.
it('in workerd with nodejs_compat, console capture survives the storage that cannot be turned off', async () => {
  const logs = fileURLToPath(new URL('./logs.ts', import.meta.url));
  const bundle = await build({
    stdin: {
      contents: `import { ConsoleCapture, InvocationLog } from ${JSON.stringify(logs)};
const capture = new ConsoleCapture();
export default {
  async fetch() {
    const results = [];
    for (const name of ['first', 'second', 'third']) {
      const log = new InvocationLog();
      const answer = await capture.run(log, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        console.log(name);
        return name + ' answered';
      });
      results.push({ answer, lines: log.lines.map((line) => line.message) });
    }
    return Response.json({ exact: capture.exact, results });
  },
};`,
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
  });
  const mf = new Miniflare({
    modules: true,
    compatibilityDate: '2024-09-23',
    compatibilityFlags: ['nodejs_compat'],
    script: bundle.outputFiles[0]?.text ?? '',
  });
  try {
    const response = await mf.dispatchFetch('http://integration.local/');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      exact: true,
      results: ['first', 'second', 'third'].map((name) => ({ answer: `${name} answered`, lines: [name] })),
    });
  } finally {
    await mf.dispose();
  }
}, 60_000);
