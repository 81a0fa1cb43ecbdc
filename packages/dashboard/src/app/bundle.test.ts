import { expect, it } from 'vitest';
import { bundleEntry, serverOnlyInputs } from '../test-support.js';

it('the browser bundle takes only types from the host: no host or zod code is bundled', async () => {
  const { inputs } = await bundleEntry('src/app/main.tsx');
  expect(inputs.some((p) => p.includes('api-client/src/host-api.ts'))).toBe(true);
  expect(serverOnlyInputs(inputs)).toEqual([]);
});
