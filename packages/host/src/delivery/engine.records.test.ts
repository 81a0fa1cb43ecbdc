import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../test/ports.js';
import { createDeliveryEngine, type DeliveryJob, type DeliveryQueue } from './engine.js';

/** Six deliveries; every `finish` (the attempt's record) waits until the test opens the gate. */
class GatedRecordQueue implements DeliveryQueue {
  readonly pending: DeliveryJob[] = Array.from({ length: 6 }, (_, i) => ({
    id: `dlv_${i}`,
    eventId: `evt_${i}`,
    eventType: 't',
    body: '{}',
    attempt: 1,
  }));
  readonly recorded: string[] = [];
  open!: () => void;
  readonly gate = new Promise<void>((resolve) => {
    this.open = resolve;
  });
  async claim(limit: number): Promise<DeliveryJob[]> {
    return this.pending.splice(0, limit);
  }
  async finish(job: DeliveryJob): Promise<void> {
    await this.gate;
    this.recorded.push(job.id);
  }
  async nextDueAt(): Promise<number | null> {
    return this.pending.length > 0 ? Date.now() : null;
  }
}

let server: Server;
let url: string;
const arrivals: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    arrivals.push(String(req.headers['x-platform-delivery-id'] ?? req.headers['webhook-id']));
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  url = `${await listenOnLoopback(server)}/hook`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('an attempt gives its slot back before its record is written', () => {
  it('two slots: four requests leave while no record is written (two records wait, slot-free), then the rest', async () => {
    const queue = new GatedRecordQueue();
    const dispatcher = new Agent();
    const engine = createDeliveryEngine({
      queue,
      resolveTarget: () => ({ url, secrets: ['whsec_test'] }),
      dispatcher,
      userAgentVersion: 'test',
      concurrency: 2,
    });
    engine.start();
    // Jobs 1-2 gave their slots back at the end of their exchange; jobs 3-4 took them and, with two
    // records already waiting (the bound: the concurrency), keep them until a record is written.
    await expect.poll(() => arrivals.length, { timeout: 5000 }).toBe(4);
    await sleep(100); // no fifth request while every slot is held
    expect(arrivals).toHaveLength(4);
    expect(queue.recorded).toEqual([]);
    queue.open();
    await expect.poll(() => queue.recorded.length, { timeout: 5000 }).toBe(6);
    expect(arrivals).toHaveLength(6);
    await engine.stop();
    await dispatcher.close();
  });
});
