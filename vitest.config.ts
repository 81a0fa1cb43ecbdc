import { defineConfig } from 'vitest/config';

// Tests run the TypeScript sources directly: every workspace package exports a
// `source` condition pointing at src/, which vitest (and tsc) resolve first.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'test/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'integrations/*/src/**/*.test.ts',
      'integrations/*/test/**/*.test.ts',
      'examples/*/test/**/*.test.ts',
      'examples/*/src/**/*.test.ts',
      'bench/**/*.test.mjs',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
