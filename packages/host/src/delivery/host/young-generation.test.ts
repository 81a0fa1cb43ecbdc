import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThreadWorker } from './thread.js';
import {
  floorYoungGeneration,
  sizesYoungGeneration,
  YOUNG_GENERATION_MB,
  YOUNG_GENERATION_OPTION,
} from './young-generation.js';

const MiB = 1024 * 1024;
const repoRoot = fileURLToPath(new URL('../../../../../', import.meta.url));

// A worker that reports the size of its young generation (V8's `new_space`) right after it started.
const REPORT_NEW_SPACE = `import { getHeapSpaceStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
parentPort.postMessage(getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platform-young-generation-'));
  await writeFile(join(dir, 'report.mjs'), REPORT_NEW_SPACE);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function newSpaceOf(worker: Worker): Promise<number> {
  const size = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  return size;
}

describe('the young generation of the delivery thread', () => {
  // One test, in this order: V8's option is process-wide, and vitest runs each test file in a process
  // of its own, so the plain worker below is what this process gave workers before the floor.
  it('starts at the floor in a worker the host creates, where a plain worker starts below it', async () => {
    const plain = await newSpaceOf(new Worker(join(dir, 'report.mjs')));
    expect(plain).toBeLessThan(YOUNG_GENERATION_MB * MiB);

    const delivery = await newSpaceOf(createThreadWorker(pathToFileURL(join(dir, 'report.mjs')), null, []));
    expect(delivery).toBeGreaterThanOrEqual(YOUNG_GENERATION_MB * MiB);
  });
});

describe('floorYoungGeneration', () => {
  it('sets the floor unless the command line sized the young generation, whatever its spelling', () => {
    const set: string[] = [];
    expect(floorYoungGeneration(['--conditions', 'source'], (flags) => set.push(flags))).toBe(true);
    expect(set).toEqual(['--min-semi-space-size=16']);

    for (const own of ['--min-semi-space-size=8', '--min_semi_space_size=0', '--min-semi_space-size=32']) {
      expect(sizesYoungGeneration([own])).toBe(true);
      expect(floorYoungGeneration(['--inspect', own], (flags) => set.push(flags))).toBe(false);
    }
    expect(set).toHaveLength(1);
    expect(sizesYoungGeneration(['--max-semi-space-size=16', '--max-old-space-size=4096'])).toBe(false);
  });

  it('is what `npm start` and the `platform-host` bin give the main thread', async () => {
    const rootPackage = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(rootPackage.scripts.start).toBe(`exec node ${YOUNG_GENERATION_OPTION} packages/host/dist/main.js`);
    const bin = await readFile(join(repoRoot, 'packages/host/bin/platform-host.js'), 'utf8');
    expect(bin.split('\n')[0]).toBe(`#!/usr/bin/env -S node ${YOUNG_GENERATION_OPTION}`);
  });
});
