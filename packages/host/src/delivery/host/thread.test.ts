import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { captureLogs } from '../../services/test-support.js';
import {
  conditionArgs,
  createThreadWorker,
  DeliveryThreadError,
  deliveryThreadEntryUrl,
  startDeliveryThread,
  workerExecArgv,
} from './thread.js';
import type { DeliveryThreadData } from './thread-protocol.js';

const workerData: DeliveryThreadData = {
  config: {
    deliveryTimeoutMs: 1000,
    deliveryConcurrency: 4,
    deliveryConcurrencyPerInstallation: 4,
    queuePollMs: 1000,
    endpointDisableAfterMs: 0,
  },
  storage: { sqlitePath: '/unused' },
  version: 'test',
};

/**
 * A stand-in worker speaking the real protocol: counts its starts in a file, answers `notify` by
 * appending to that file, crashes (uncaught) on its first `notify` of its first life, and on `stop`
 * reports `stopped` after a short drain.
 */
const FAKE_WORKER = `
import { parentPort, workerData } from 'node:worker_threads';
import { appendFileSync, readFileSync } from 'node:fs';
const file = workerData.file;
appendFileSync(file, 'start\\n');
const starts = readFileSync(file, 'utf8').split('\\n').filter((l) => l === 'start').length;
parentPort.on('message', (m) => {
  if (m.type === 'notify') {
    appendFileSync(file, 'notify\\n');
    if (starts === 1) throw Object.assign(new Error('boom in the worker'), { code: 'boom' });
    parentPort.postMessage({ type: 'log', level: 'error', message: 'delivery engine error', fields: { phase: 'claim', err: { name: 'StorageError', message: 'locked', code: 'unavailable' } } });
  } else if (m.type === 'stop') {
    setTimeout(() => { appendFileSync(file, 'stopped\\n'); parentPort.postMessage({ type: 'stopped' }); parentPort.close(); }, 50);
  }
});
parentPort.postMessage({ type: 'ready' });
`;

const FAILING_WORKER = `
import { parentPort } from 'node:worker_threads';
parentPort.postMessage({ type: 'failed', error: { name: 'StorageError', message: 'cannot open the database', code: 'unavailable' } });
process.exitCode = 1;
parentPort.close();
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'delivery-thread-'));
  await writeFile(join(dir, 'fake.mjs'), FAKE_WORKER);
  await writeFile(join(dir, 'failing.mjs'), FAILING_WORKER);
  await writeFile(
    join(dir, 'echo.mjs'),
    "import { parentPort, workerData } from 'node:worker_threads';\nparentPort.postMessage({ data: workerData, execArgv: process.execArgv });\n",
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const until = async (check: () => Promise<boolean> | boolean, what: string) => {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('startDeliveryThread', () => {
  it('coalesces notifies, relays log lines, restarts a crashed worker with a log line, stops gracefully', async () => {
    const file = join(dir, 'events.log');
    await writeFile(file, '');
    const { lines, logger } = captureLogs();
    const runner = await startDeliveryThread({
      workerData: { ...workerData, file } as DeliveryThreadData,
      logger,
      workerUrl: pathToFileURL(join(dir, 'fake.mjs')),
      restartDelayMs: 10,
    });
    const read = async () => (await readFile(file, 'utf8')).split('\n').filter(Boolean);

    // Three notifies in one turn are one message; the first life crashes on it.
    runner.notify();
    runner.notify();
    runner.notify();
    await until(async () => (await read()).filter((l) => l === 'start').length === 2, 'a restart');
    expect((await read()).filter((l) => l === 'notify')).toHaveLength(1);
    const crash = lines.find((l) => l.msg === 'delivery worker thread crashed; restarting it');
    expect(crash).toMatchObject({
      level: 50,
      err: { message: expect.stringContaining('boom in the worker') },
    });

    // The second life answers with a log line, relayed to this thread's logger with its error rebuilt.
    runner.notify();
    await until(() => lines.some((l) => l.msg === 'delivery engine error'), 'the relayed log line');
    const relayed = lines.find((l) => l.msg === 'delivery engine error');
    expect(relayed).toMatchObject({
      phase: 'claim',
      thread: 'delivery',
      err: { message: 'locked', code: 'unavailable' },
    });

    await runner.stop();
    expect((await read()).at(-1)).toBe('stopped'); // stop waited for the worker's own drain
    expect((await read()).filter((l) => l === 'start')).toHaveLength(2); // no restart after stop
  });

  it('rejects with a DeliveryThreadError carrying the worker start-up failure', async () => {
    const { logger } = captureLogs();
    const error = await startDeliveryThread({
      workerData,
      logger,
      workerUrl: pathToFileURL(join(dir, 'failing.mjs')),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryThreadError);
    expect(error).toMatchObject({ code: 'delivery_thread_failed' });
    expect((error as Error).message).toContain('cannot open the database');
  });
});

describe('deliveryThreadEntryUrl and workerExecArgv', () => {
  it('from sources, resolves the built dist file through the package export', () => {
    const url = deliveryThreadEntryUrl(pathToFileURL(join(import.meta.dirname, 'thread.ts')).href);
    expect(url.pathname).toMatch(/packages\/host\/dist\/delivery\/host\/thread-entry\.js$/);
  });

  it('from a bundle without the built worker (and no package), names npm run build', () => {
    const from = pathToFileURL(join(dir, 'elsewhere', 'index.js')).href;
    expect(() => deliveryThreadEntryUrl(from)).toThrow(/npm run build/);
  });

  it('drops only the source condition of the parent', () => {
    expect(
      workerExecArgv([
        '--conditions',
        'source',
        '--conditions',
        'node',
        '-C=source',
        '--inspect',
        '--conditions=source',
      ]),
    ).toEqual(['--conditions', 'node', '--inspect']);
  });

  it('starts a worker even when the parent runs with options workers refuse (V8 heap sizes, --title)', async () => {
    // `node --max-old-space-size=4096 main.js` must still start the delivery thread.
    const parentArgs = [
      '--max-old-space-size=512',
      '--max-semi-space-size=16',
      '--conditions',
      'node',
      '--title=host',
    ];
    const worker = createThreadWorker(pathToFileURL(join(dir, 'echo.mjs')), { hello: 'worker' }, parentArgs);
    const answer = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    expect(answer).toEqual({ data: { hello: 'worker' }, execArgv: ['--conditions', 'node'] });
    await worker.terminate();
    expect(conditionArgs(['--inspect', '-C', 'a', '--conditions=b', '--x'])).toEqual([
      '-C',
      'a',
      '--conditions=b',
    ]);
  });
});

describe('PLATFORM_DELIVERY_THREAD', () => {
  it('is 1 (the default) or 0; anything else names the variable', () => {
    expect(loadConfig({}).deliveryThread).toBe(true);
    expect(loadConfig({ PLATFORM_DELIVERY_THREAD: '0' }).deliveryThread).toBe(false);
    expect(loadConfig({ PLATFORM_DELIVERY_THREAD: '1' }).deliveryThread).toBe(true);
    expect(() => loadConfig({ PLATFORM_DELIVERY_THREAD: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ PLATFORM_DELIVERY_THREAD: 'yes' })).toThrow(
      /PLATFORM_DELIVERY_THREAD must be 1/,
    );
  });
});
