import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  folderCycles,
  folderOf,
  groupCycles,
  HOST_LAYERS,
  type ImportGraph,
  jobsImportProblems,
  layerViolations,
  unitOf,
} from '../test/structure.js';

// The host's structure (docs/architecture.md "Inside the host"): rooms in layers, no import running back
// up, no two folders depending on each other. Tests and the storage contract's shared suites
// (storage/contract/) wire real parts across the rooms on purpose: they are not part of the structure.
const src = fileURLToPath(new URL('.', import.meta.url));
const madgeCli = createRequire(import.meta.url).resolve('madge/bin/cli.js');

let graph: ImportGraph;

beforeAll(async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [madgeCli, '--json', '--extensions', 'ts', '--exclude', '(\\.test\\.ts$|^storage/contract/)', '.'],
    { cwd: src, maxBuffer: 16 * 1024 * 1024 },
  );
  graph = JSON.parse(stdout) as ImportGraph;
}, 120_000);

describe("the host's structure", () => {
  it('reads the whole source tree', () => {
    const files = Object.keys(graph);
    expect(files.length).toBeGreaterThan(150);
    for (const room of ['api/app.ts', 'services/events.ts', 'jobs/job-loop.ts', 'invocation/invoker.ts']) {
      expect(files).toContain(room);
    }
    expect(graph['delivery/host/queue-engine.ts']).toContain('jobs/group-commit.ts');
  });

  it('has no import running back up the layers, and every unit is in a layer', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('has no two top-level folders (or root files) that depend on each other', () => {
    expect(groupCycles(graph, unitOf)).toEqual([]);
  });

  it('has no two folders at any depth that depend on each other', () => {
    expect(folderCycles(graph)).toEqual([]);
  });

  it('keeps jobs/ on storage types alone', () => {
    const jobs = Object.keys(graph).filter((file) => file.startsWith('jobs/'));
    expect(jobs.length).toBeGreaterThan(3);
    const problems = jobs.flatMap((file) => jobsImportProblems(file, readFileSync(`${src}${file}`, 'utf8')));
    expect(problems).toEqual([]);
  });
});

describe('the rules refuse what the issue found', () => {
  it('an arrow back up, added to the real graph, is refused with its files', () => {
    const withArrow = {
      ...graph,
      'delivery/host/queue-engine.ts': [
        ...(graph['delivery/host/queue-engine.ts'] ?? []),
        'services/dispatch.ts',
      ],
    };
    expect(layerViolations(withArrow)).toEqual([
      'delivery -> services runs back up (delivery/host/queue-engine.ts -> services/dispatch.ts)',
    ]);
    expect(groupCycles(withArrow, unitOf)).toContainEqual(expect.arrayContaining(['delivery', 'services']));
  });

  it.each([
    ['services/documents.ts', 'api/app-types.ts', 'services -> api'],
    ['metrics/index.ts', 'delivery/policy.ts', 'metrics -> delivery'],
    ['jobs/job-loop.ts', 'storage/index.ts', 'jobs -> storage'],
  ])('%s -> %s: %s', (from, to, arrow) => {
    const problems = layerViolations({ [from]: [to] });
    if (arrow === 'jobs -> storage') expect(problems).toEqual([]);
    else expect(problems).toEqual([`${arrow} runs back up (${from} -> ${to})`]);
  });

  it('delivery and invocation share a layer but may not import each other', () => {
    expect(layerViolations({ 'invocation/invoker.ts': ['delivery/engine.ts'] })).toEqual([
      'invocation -> delivery joins two rooms kept apart (invocation/invoker.ts -> delivery/engine.ts)',
    ]);
  });

  it('a folder nobody placed is refused', () => {
    expect(layerViolations({ 'queues/x.ts': ['storage/index.ts'] })).toEqual([
      'queues is in no layer: add it to HOST_LAYERS (queues/x.ts -> storage/index.ts)',
    ]);
    expect(HOST_LAYERS.flat()).not.toContain('queues');
  });

  it('a ring of folders is a cycle, at the top and at any depth', () => {
    const ring: ImportGraph = {
      'delivery/host/start.ts': ['services/context.ts'],
      'services/context.ts': ['metrics/index.ts'],
      'metrics/index.ts': ['delivery/policy.ts'],
      'delivery/policy.ts': ['delivery/host/port.ts'],
    };
    expect(groupCycles(ring, unitOf)).toEqual([['delivery', 'metrics', 'services']]);
    expect(groupCycles(ring, folderOf)).toEqual([['delivery', 'delivery/host', 'metrics', 'services']]);
    const siblings: ImportGraph = {
      'delivery/host/a.ts': ['delivery/endpoint/b.ts'],
      'delivery/endpoint/b.ts': ['delivery/host/c.ts'],
    };
    expect(groupCycles(siblings, unitOf)).toEqual([]);
    expect(folderCycles(siblings)).toEqual([['delivery/endpoint', 'delivery/host']]);
    expect(groupCycles({ 'a/x.ts': ['b/y.ts'] }, unitOf)).toEqual([]);
  });

  it('jobs/ importing a worker, or storage at run time, is refused', () => {
    const source = [
      "import type { JobRecord } from '../storage/index.js';",
      "import { FairShare } from './fair-share.js';",
      "import { newSortableId } from '../storage/index.js';",
      'import {',
      '  createDeliveryEngine,',
      "} from '../delivery/engine.js';",
    ].join('\n');
    expect(jobsImportProblems('jobs/x.ts', source)).toEqual([
      'jobs/x.ts imports ../storage/index.js: jobs/ imports only its own files and storage types',
      'jobs/x.ts imports ../delivery/engine.js: jobs/ imports only its own files and storage types',
    ]);
  });
});
