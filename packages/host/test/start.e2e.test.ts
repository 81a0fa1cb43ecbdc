import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { YOUNG_GENERATION_OPTION } from '../src/delivery/host/young-generation.js';
import { openStorage } from '../src/storage/index.js';
import { ADMIN_TOKEN, buildWorkspace, repoRoot } from './helpers.js';
import { LineCollector } from './log-lines.js';

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

// `npm start &` then `kill $PID`, as the README does, run as real processes: the host's output is
// one JSON object a line naming the installation it is about, a failed attempt is logged at warn, and
// SIGTERM to npm's PID stops the host after its in-flight attempt finished.
describe('npm start (the host as a process)', () => {
  let dataDir: string;
  let receiver: Server;
  let receiverUrl: string;
  let npm: ChildProcess;
  let out: LineCollector;
  let base: string;
  const received: number[] = [];
  let answeredSecondAt = 0;
  let secondArrived: () => void;
  const secondArrival = new Promise<void>((resolve) => {
    secondArrived = resolve;
  });

  beforeAll(async () => {
    buildWorkspace();
    dataDir = await mkdtemp(join(tmpdir(), 'platform-start-'));
    receiver = createServer((req, res) => {
      req.resume();
      received.push(Date.now());
      if (received.length === 1) {
        res.writeHead(500).end('try again');
        return;
      }
      secondArrived();
      // Held while the host is told to stop: the host must wait for this answer.
      setTimeout(() => {
        res.on('finish', () => {
          answeredSecondAt = Date.now();
        });
        res.writeHead(200).end('ok');
      }, 1500);
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    npm = spawn('npm', ['start'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: '0',
        PLATFORM_DATA_DIR: dataDir,
        PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
        PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
        PLATFORM_DELIVERY_TIMEOUT_MS: '8000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    npm.stderr?.resume();
    out = new LineCollector(npm.stdout as NonNullable<ChildProcess['stdout']>);
    const started = await out.waitFor((l) => typeof l.json?.url === 'string', 30_000);
    base = String(started.json?.url);
  });

  afterAll(async () => {
    // After a failure: neither npm nor the host it started may outlive the test.
    const hostPid = out?.lines.find((l) => typeof l.json?.pid === 'number')?.json?.pid;
    if (typeof hostPid === 'number') killQuietly(hostPid);
    if (npm.exitCode === null) npm.kill('SIGKILL');
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await rm(dataDir, { recursive: true, force: true });
  });

  const api = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Record<string, unknown>;
  };

  it('runs `node` with the young generation’s floor, the one option V8 takes only from the command line', async () => {
    const started = await out.waitFor((l) => typeof l.json?.url === 'string');
    const cmdline = await readFile(`/proc/${Number(started.json?.pid)}/cmdline`, 'utf8');
    expect(cmdline.split('\0')).toContain(YOUNG_GENERATION_OPTION);
  });

  it('logs JSON lines that name the installation, warns of a failed attempt, and drains on SIGTERM', async () => {
    const installation = await api('/v1/installations', {
      integration: 'webhook',
      space: 'space-1',
      configuration: { url: receiverUrl, space_content_updated: true },
    });
    const installationId = String(installation.id);
    expect(installationId).toMatch(/^inst_/);

    // The built-in integration's own line ("No handler for event ...") carries its installation.
    const integrationLine = await out.waitFor(
      (l) => l.json?.source === 'integration' && l.json.installation === installationId,
    );
    expect(String(integrationLine.json?.msg)).toContain(installationId);

    await api('/v1/events', { type: 'space_content_updated', spaceId: 'space-1', revisionId: 'rev-1' });
    const warn = await out.waitFor((l) => l.json?.level === 40 && l.json.attempt === 1);
    expect(warn.json).toMatchObject({
      installation: installationId,
      attempt: 1,
      outcome: 'HTTP 500',
      nextAttemptAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(String(warn.json?.delivery)).toMatch(/^dlv_/);

    // Attempt 2 is in flight (the receiver holds it 1.5 s): kill npm's PID, as `kill $PID` does.
    await secondArrival;
    const hostPid = Number(warn.json?.pid);
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    npm.kill('SIGTERM');
    const code = await exited;
    const exitedAt = Date.now();
    await out.waitFor((l) => l.json?.msg === 'stopped', 5_000);
    expect(code).toBe(0);
    expect(answeredSecondAt).toBeGreaterThan(0);
    expect(answeredSecondAt).toBeLessThanOrEqual(exitedAt);
    expect(() => process.kill(hostPid, 0)).toThrow(); // the host process is gone, not orphaned

    // The in-flight attempt was recorded before the host exited.
    const storage = await openStorage({ sqlitePath: join(dataDir, 'platform.db') });
    try {
      const page = await storage.jobs.listDeliveries(installationId);
      expect(page.items.map((d) => [d.state, d.attempts.length])).toEqual([['succeeded', 2]]);
    } finally {
      await storage.close();
    }

    // Everything the host printed is JSON (npm's own "> start" header aside).
    const hostLines = out.lines.filter((l) => l.text.trim() !== '' && !l.text.startsWith('>'));
    expect(hostLines.filter((l) => l.json === null).map((l) => l.text)).toEqual([]);
  }, 60_000);
});
