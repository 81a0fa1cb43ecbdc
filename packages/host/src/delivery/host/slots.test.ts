import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { DeliverySlots } from './slots.js';

describe('DeliverySlots', () => {
  it('starts with no free slot and work wanted: nothing is handed over before the engine runs', () => {
    const slots = DeliverySlots.create();
    expect(slots.free).toBe(0);
    expect(slots.take(4)).toBe(0);
    slots.give(4);
    expect(slots.reserve(2)).toBe(0); // wanted until the engine says it has no queued work
    slots.want(false);
    expect(slots.reserve(3)).toBe(3);
    expect(slots.free).toBe(1);
  });

  it('takes at most what is free, never below zero; gives back', () => {
    const slots = DeliverySlots.create();
    slots.give(5);
    expect(slots.take(3)).toBe(3);
    expect(slots.take(3)).toBe(2);
    expect(slots.take(1)).toBe(0);
    expect(slots.free).toBe(0);
    slots.give(2);
    expect(slots.take(0)).toBe(0);
    expect(slots.take(-1)).toBe(0);
    expect(slots.take(10)).toBe(2);
  });

  it('shared by threads: slots taken and given back concurrently are all accounted for', async () => {
    const slots = DeliverySlots.create();
    slots.give(8);
    const code = `
      const { workerData, parentPort } = require('node:worker_threads');
      const cells = new Int32Array(workerData);
      let held = 0;
      let negative = 0;
      for (let i = 0; i < 200000; i++) {
        for (;;) {
          const free = Atomics.load(cells, 0);
          if (free === 0) break;
          if (Atomics.compareExchange(cells, 0, free, free - 1) === free) { held++; break; }
        }
        if (held > 0 && (i % 3 === 0)) { Atomics.add(cells, 0, 1); held--; }
        if (Atomics.load(cells, 0) < 0) negative++;
      }
      Atomics.add(cells, 0, held);
      parentPort.postMessage(negative);
    `;
    const run = () =>
      new Promise<number>((resolve, reject) => {
        const worker = new Worker(code, { eval: true, workerData: slots.buffer });
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    // Meanwhile this thread takes and gives with the class itself.
    const here = (async () => {
      for (let i = 0; i < 2000; i++) {
        const got = slots.take(2);
        expect(slots.free).toBeGreaterThanOrEqual(0);
        await Promise.resolve();
        slots.give(got);
      }
    })();
    expect(await Promise.all([run(), run()])).toEqual([0, 0]);
    await here;
    expect(slots.free).toBe(8);
  });

  it('refuses a buffer that is not one of its own', () => {
    expect(() => DeliverySlots.from(new SharedArrayBuffer(2))).toThrow(/DeliverySlots.create/);
  });
});
