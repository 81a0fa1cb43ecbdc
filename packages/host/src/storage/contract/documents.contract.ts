import { expect, it } from 'vitest';
import { isStorageError } from '../errors.js';
import type { Ctx } from './fixtures.js';

const text = (t: string) => ({ type: 'text', text: t });
const block = (props: Record<string, string>) => ({
  type: 'block',
  id: 'b1',
  installationId: 'inst_1',
  componentId: 'diagram',
  props,
});

export function documentsContract(ctx: () => Ctx): void {
  it('documents: none at first; put increments the revision; compare-and-set refuses a stale base', async () => {
    const { storage } = ctx();
    expect(await storage.documents.get('space_1')).toBeNull();
    const first = await storage.documents.put('space_1', [text('Hi'), block({ content: 'A --> B' })], {
      baseRevision: 0,
      now: 1000,
    });
    expect(first).toEqual({
      spaceId: 'space_1',
      nodes: [text('Hi'), block({ content: 'A --> B' })],
      revision: 1,
      updatedAt: 1000,
    });
    expect(await storage.documents.get('space_1')).toEqual(first);

    const second = await storage.documents.put('space_1', [text('Hello')], { baseRevision: 1, now: 2000 });
    expect(second).toMatchObject({ revision: 2, nodes: [text('Hello')], updatedAt: 2000 });
    for (const stale of [0, 1, 5]) {
      const error = await storage.documents
        .put('space_1', [text('lost')], { baseRevision: stale })
        .catch((e) => e);
      expect(isStorageError(error, 'conflict'), String(stale)).toBe(true);
    }
    expect(await storage.documents.get('space_1')).toEqual(second);

    // without a base revision, the save wins whatever is stored
    expect(await storage.documents.put('space_1', [], { now: 3000 })).toMatchObject({
      revision: 3,
      nodes: [],
    });
    expect(await storage.documents.put('space_2', [text('x')])).toMatchObject({
      spaceId: 'space_2',
      revision: 1,
    });
    const invalid = await storage.documents.put('space_1', [], { baseRevision: -1 }).catch((e) => e);
    expect(isStorageError(invalid, 'invalid')).toBe(true);
  });

  it('documents: of two saves from the same revision, exactly one wins', async () => {
    const { storage } = ctx();
    await storage.documents.put('space_race', [text('base')], { baseRevision: 0 });
    const results = await Promise.allSettled(
      ['a', 'b', 'c'].map((t) => storage.documents.put('space_race', [text(t)], { baseRevision: 1 })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected'))
      expect(isStorageError((r as PromiseRejectedResult).reason, 'conflict')).toBe(true);
    expect((await storage.documents.get('space_race'))?.revision).toBe(2);
  });

  it('documents: a locked read-modify-write in a transaction loses no concurrent update', async () => {
    const { storage } = ctx();
    const blocks = Array.from({ length: 5 }, (_, i) => ({ ...block({ n: '0' }), id: `b${i}` }));
    await storage.documents.put('space_lock', blocks);
    await Promise.all(
      blocks.map((_, i) =>
        storage.transaction(async (tx) => {
          const current = await tx.documents.get('space_lock', { lock: true });
          const nodes = (current?.nodes ?? []) as Array<{ id: string; props: Record<string, string> }>;
          const next = nodes.map((n) => (n.id === `b${i}` ? { ...n, props: { n: String(i + 1) } } : n));
          await tx.documents.put('space_lock', next, { baseRevision: current?.revision ?? 0 });
        }),
      ),
    );
    const final = await storage.documents.get('space_lock');
    expect(final?.revision).toBe(6);
    expect(((final?.nodes ?? []) as Array<{ props: { n: string } }>).map((n) => n.props.n)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
  });
}
