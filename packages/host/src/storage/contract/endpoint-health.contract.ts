import { expect, it } from 'vitest';
import { type Ctx, setup } from './fixtures.js';

/** `storage.endpointHealth`: failing and disabled endpoints, and the deliveries kept for them. */
export function endpointHealthContract(ctx: () => Ctx): void {
  it('stores a state per endpoint through change(), deletes a healthy one, lists what is tracked', async () => {
    const { storage } = ctx();
    const id = await setup(storage);
    expect(await storage.endpointHealth.get(id)).toBeNull();
    const result = await storage.endpointHealth.change(id, 1000, (state) => ({
      state: { ...state, failingSince: 1000 },
      seen: state,
    }));
    expect(result.seen).toEqual({ failingSince: null, disabledAt: null, enabledAt: null });
    await storage.endpointHealth.change(id, 2000, (state) => ({ state: { ...state, disabledAt: 2000 } }));
    expect(await storage.endpointHealth.get(id)).toEqual({
      installationId: id,
      failingSince: 1000,
      disabledAt: 2000,
      enabledAt: null,
      updatedAt: 2000,
    });
    expect((await storage.endpointHealth.list()).map((r) => r.installationId)).toEqual([id]);
    await storage.endpointHealth.change(id, 3000, () => ({
      state: { failingSince: null, disabledAt: null, enabledAt: null },
    }));
    expect(await storage.endpointHealth.get(id)).toBeNull();
    expect(await storage.endpointHealth.list()).toEqual([]);
  });

  it("keeps a disabled endpoint's queued deliveries held, counts them, cancels them; uninstalling forgets it", async () => {
    const { storage } = ctx();
    const id = await setup(storage);
    await storage.jobs.enqueue(
      [
        { kind: 'deliver', installationId: id, payload: {} },
        { kind: 'deliver', installationId: id, payload: {}, runAt: 5000 },
        { kind: 'invoke', installationId: id, payload: {} },
      ],
      100,
    );
    expect(await storage.endpointHealth.holdDeliveries(id, 200)).toBe(2);
    expect(await storage.endpointHealth.countHeld(id)).toBe(2);
    // held: never claimed
    expect(await storage.jobs.claim({ kinds: ['deliver'], limit: 10, leaseMs: 1000, now: 10_000 })).toEqual(
      [],
    );
    expect(await storage.endpointHealth.cancelKept(id, 300)).toBe(2);
    expect(await storage.endpointHealth.countHeld(id)).toBe(0);
    const { items } = await storage.jobs.listDeliveries(id);
    expect(items.map((j) => j.state)).toEqual(['cancelled', 'cancelled']);

    await storage.endpointHealth.change(id, 400, () => ({
      state: { failingSince: 1, disabledAt: 400, enabledAt: null },
    }));
    await storage.installations.delete(id);
    expect(await storage.endpointHealth.get(id)).toBeNull();
  });
}
