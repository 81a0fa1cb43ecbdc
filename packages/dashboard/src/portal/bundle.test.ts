import { expect, it } from 'vitest';
import { bundleEntry, serverOnlyInputs } from '../test-support.js';

it('the portal bundle keeps its token in memory: no browser storage, no sign-in code, no host code', async () => {
  const { inputs, code } = await bundleEntry('src/portal/main.tsx', {
    'process.env.NODE_ENV': '"production"',
  });
  expect(inputs.some((p) => p.endsWith('src/portal/link.ts'))).toBe(true);
  // the dashboard's sign-in (which stores the operator token) is not part of the portal
  expect(inputs.filter((p) => p.endsWith('src/app/auth.ts') || p.endsWith('src/app/main.tsx'))).toEqual([]);
  expect(serverOnlyInputs(inputs)).toEqual([]);
  expect(code.length).toBeGreaterThan(1000);
  expect(code).not.toMatch(/localStorage|sessionStorage|document\.cookie|indexedDB/);
});
