// A short run of bench:destinations (brokers.mjs) against the real brokers of .ci/run: every broker's
// destination and bare client publish all their messages, and the report has each broker's ratio.
// (The ratio itself is not asserted here: 200 messages on a shared machine are too few to measure it.)
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('publishes every message through each destination and each bare client, and reports the ratios', async () => {
  const script = fileURLToPath(new URL('./brokers.mjs', import.meta.url));
  // Plain node, not vitest's `--conditions source`: the script bundles the TypeScript sources itself.
  const { stdout, stderr } = await new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [script, '--messages=200', '--rounds=1', '--concurrency=16'],
      { timeout: 120_000 },
      (error, out, err) =>
        error && error.code !== 1
          ? reject(Object.assign(error, { err }))
          : resolve({ stdout: out, stderr: err }),
    );
  });
  expect(stderr).toBe('');
  for (const broker of ['rabbitmq', 'nats', 'redis']) {
    expect(stdout).toMatch(
      new RegExp(`^${broker} +destination +\\d+ msg/s .* bare +\\d+ msg/s .* ratio \\d+\\.\\d\\d`, 'm'),
    );
  }
}, 150_000);
