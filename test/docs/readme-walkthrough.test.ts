import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWorkspace, repoRoot } from '../../packages/host/test/helpers.js';
import { freeLoopbackPort } from '../../packages/host/test/ports.js';

/**
 * The README's walkthrough, copied as a reader copies it into a shell: its `sh` block runs in bash at the
 * repository root, on a first start (an empty data folder), changed only where this machine differs from
 * a reader's (free ports instead of 8080 and 3000, a temporary data folder instead of `.platform`).
 */

/** The walkthrough's shell block. */
async function walkthrough(): Promise<string> {
  const text = await readFile(join(repoRoot, 'README.md'), 'utf8');
  const section = text.slice(text.indexOf('## Walkthrough'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no sh block under "## Walkthrough"');
  return block;
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('README walkthrough', () => {
  it('runs line by line on a first start: the receiver prints the event and the delivery succeeded', async () => {
    buildWorkspace();
    const block = await walkthrough();
    const [hostPort, receiverPort] = [await freeLoopbackPort(), await freeLoopbackPort()];
    const data = await mkdtemp(join(tmpdir(), 'readme-walkthrough-'));
    cleanups.push(() => rm(data, { recursive: true, force: true }));
    const script = block
      .replaceAll('127.0.0.1:8080', `127.0.0.1:${hostPort}`)
      .replaceAll('127.0.0.1:3000', `127.0.0.1:${receiverPort}`)
      .replaceAll('PORT=3000', `PORT=${receiverPort}`)
      .replaceAll('.platform/admin-token', `${data}/admin-token`);
    // every line as written, then wait for the receiver's line (the reader would watch it appear)
    const full = `set -u\n${script}\nfor i in $(seq 1 150); do grep -q 'attempt=' "$OUT" && break; sleep 0.2; done\n`;
    const out = join(data, 'receiver.out');
    const child = spawn('bash', ['-c', `exec > >(tee "$OUT") 2>&1\n${full}`], {
      cwd: repoRoot,
      detached: true,
      env: {
        ...process.env,
        OUT: out,
        PORT: String(hostPort),
        PLATFORM_CONTENT_PORT: String(await freeLoopbackPort()),
        PLATFORM_DATA_DIR: data,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    cleanups.push(async () => {
      try {
        process.kill(-(child.pid as number), 'SIGTERM'); // the host and the receiver it left running
      } catch {
        // already gone
      }
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, output).toBe(0);
    expect(output).not.toMatch(/No such file|Unexpected end of JSON|EADDRINUSE|undefined/);
    // step 4's answer, and the receiver's line for the same event
    const eventId = /\{"eventId":"(evt_[^"]+)"\}/.exec(output)?.[1];
    expect(eventId, output).toBeDefined();
    expect(output).toMatch(new RegExp(`space_content_updated ${eventId} installation=inst_\\S+ attempt=1`));
    // step 5 listed the delivery (queued or already done: the reader sees it either way)
    expect(output).toMatch(/"deliveries":\[\{"id":"dlv_/);
  }, 120_000);
});
