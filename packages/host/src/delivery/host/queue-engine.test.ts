import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGuardedDispatcher, parseAllowPrivateTargets } from '../../net/index.js';
import { captureLogs, installSpaceWebhook, testContext } from '../../services/test-support.js';
import { openStorage } from '../../storage/index.js';
import { startDeliveryEngine } from './queue-engine.js';
import { slowInstallations } from './slow-installations.js';

it('tracks slow installations and tells the operator when one becomes slow (warn, with its share) and recovers (info)', () => {
  const { lines, logger } = captureLogs();
  const slow = slowInstallations(logger, 16);
  expect(slow.has('inst_dead')).toBe(false);
  slow.update('inst_dead', true);
  expect(slow.has('inst_dead')).toBe(true);
  expect(slow.has('inst_other')).toBe(false);
  slow.update('inst_dead', false);
  expect(slow.has('inst_dead')).toBe(false);
  expect(
    lines.map(({ level, installation, maxInFlight, msg }) => ({ level, installation, maxInFlight, msg })),
  ).toEqual([
    {
      level: 40,
      installation: 'inst_dead',
      maxInFlight: 16,
      msg: 'webhook endpoint of installation inst_dead is slow (an attempt is running past 500 ms): at most 16 of its deliveries in flight while it does, and for a minute if another one does within a minute',
    },
    {
      level: 30,
      installation: 'inst_dead',
      maxInFlight: undefined,
      msg: 'webhook endpoint of installation inst_dead is no longer slow',
    },
  ]);
});

describe('held deliveries', () => {
  it('are queued again and delivered when the engine starts (a host that held them stopped or crashed)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'held-'));
    const storage = await openStorage({ sqlitePath: join(dir, 'p.db') });
    const received: string[] = [];
    const receiver = createServer((req, res) => {
      received.push(String(req.headers['x-platform-delivery-id']));
      res.writeHead(200).end('{"received":true}');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const dispatcher = createGuardedDispatcher(parseAllowPrivateTargets('1'));
    try {
      const ctx = await testContext(dir, storage);
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const installation = await installSpaceWebhook(storage, 'sp-held', url);
      await storage.webhookSecrets.set(installation.id, 'whsec_test');
      const held = await storage.jobs.enqueue(
        [1, 2, 3].map((i) => ({
          kind: 'deliver' as const,
          installationId: installation.id,
          eventId: `evt_held_${i}`,
          payload: { eventType: 'space_content_updated', body: `{"i":${i}}` },
          hold: true,
        })),
      );
      expect(held.map((job) => job.state)).toEqual(['held', 'held', 'held']);
      const engine = startDeliveryEngine(ctx, dispatcher, 'test');
      try {
        const deadline = Date.now() + 10_000;
        while (received.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(received.sort()).toEqual(held.map((job) => job.id).sort());
      } finally {
        await engine.stop({ graceful: true });
      }
    } finally {
      await dispatcher.close();
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
