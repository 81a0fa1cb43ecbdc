import { expect, it } from 'vitest';
import type { DeliveryTargetRead } from '../../storage/index.js';
import { DeliveryTargets } from './targets.js';

/** A read function over a mutable "database" that counts its reads. */
function database() {
  const db = {
    epoch: 5,
    url: 'https://example.com/a',
    secrets: ['whsec_1'],
    validUntil: null as number | null,
    gone: false,
    fail: false,
    reads: 0,
    read: async (_id: string): Promise<DeliveryTargetRead | null> => {
      db.reads++;
      await Promise.resolve();
      if (db.fail) throw new Error('database unavailable');
      if (db.gone) return null;
      return {
        configuration: { url: db.url },
        secrets: [...db.secrets],
        validUntil: db.validUntil,
        epoch: db.epoch,
        signingKeys: [],
        credentials: null,
      };
    },
  };
  return db;
}

it('deliveries without a routing epoch share one read per installation until forget()', async () => {
  const db = database();
  const targets = new DeliveryTargets(db.read);
  const both = await Promise.all([
    targets.resolve({ installationId: 'i1' }),
    targets.resolve({ installationId: 'i1' }),
  ]);
  expect(both).toEqual([
    { url: 'https://example.com/a', secrets: ['whsec_1'] },
    { url: 'https://example.com/a', secrets: ['whsec_1'] },
  ]);
  expect(db.reads).toBe(1);
  db.url = 'https://example.com/b';
  db.epoch = 6;
  expect((await targets.resolve({ installationId: 'i1' }))?.url).toBe('https://example.com/a');
  targets.forget();
  expect((await targets.resolve({ installationId: 'i1' }))?.url).toBe('https://example.com/b');
  expect(db.reads).toBe(2);
});

it('a delivery reuses a read at its routing epoch (read by its claim, or at its hand-over) or later, and reads again after a change', async () => {
  const db = database();
  const targets = new DeliveryTargets(db.read);
  await targets.resolve({ installationId: 'i1', routingEpoch: 5 });
  await targets.resolve({ installationId: 'i1', routingEpoch: 5 });
  await targets.resolve({ installationId: 'i1', routingEpoch: 4 });
  expect(db.reads).toBe(1);
  // The URL changed (epoch 6); a write checked at epoch 6 handed this one over: the read at 5 is stale.
  db.url = 'https://example.com/b';
  db.epoch = 6;
  const [first, second] = await Promise.all([
    targets.resolve({ installationId: 'i1', routingEpoch: 6 }),
    targets.resolve({ installationId: 'i1', routingEpoch: 6 }),
  ]);
  expect([first?.url, second?.url]).toEqual(['https://example.com/b', 'https://example.com/b']);
  expect(db.reads).toBe(2); // one read again, shared
  await targets.resolve({ installationId: 'i1', routingEpoch: 6 });
  expect(db.reads).toBe(2);
});

it('a read whose previous secret has expired since is read again', async () => {
  const db = database();
  let now = 1_000;
  const targets = new DeliveryTargets(db.read, () => now);
  db.secrets = ['whsec_2', 'whsec_1'];
  db.validUntil = 2_000;
  expect((await targets.resolve({ installationId: 'i1', routingEpoch: 5 }))?.secrets).toEqual([
    'whsec_2',
    'whsec_1',
  ]);
  now = 1_999;
  await targets.resolve({ installationId: 'i1', routingEpoch: 5 });
  expect(db.reads).toBe(1);
  now = 2_000;
  db.secrets = ['whsec_2'];
  db.validUntil = null;
  expect((await targets.resolve({ installationId: 'i1', routingEpoch: 5 }))?.secrets).toEqual(['whsec_2']);
  expect(db.reads).toBe(2);
});

it('a failed read is not kept; a gone installation is null, and read again for a handed-over delivery', async () => {
  const db = database();
  const targets = new DeliveryTargets(db.read);
  db.fail = true;
  await expect(targets.resolve({ installationId: 'i1' })).rejects.toThrow('database unavailable');
  db.fail = false;
  expect(await targets.resolve({ installationId: 'i1' })).not.toBeNull();
  expect(db.reads).toBe(2);
  db.gone = true;
  targets.forget();
  expect(await targets.resolve({ installationId: 'i1' })).toBeNull();
  expect(await targets.resolve({ installationId: 'i1' })).toBeNull();
  expect(db.reads).toBe(3);
  db.gone = false;
  expect(await targets.resolve({ installationId: 'i1', routingEpoch: 7 })).not.toBeNull();
  expect(db.reads).toBe(4);
});
