import { expect, it } from 'vitest';
import { newSortableId } from '../ids.js';
import type { AuditRecord } from '../repos/audit.js';
import type { Ctx } from './fixtures.js';

const T0 = 1_700_000_000_000;

/** An audit entry at `at` (its id sorts by time). */
function entry(at: number, overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    id: newSortableId('aud', at),
    at,
    actor: 'organization',
    actorOrganization: 'acme',
    tokenId: 'tok_1',
    tokenName: 'ci',
    organizationId: 'acme',
    action: 'integration.publish',
    resourceType: 'integration',
    resourceId: 'hello',
    changes: { version: '1', nested: { list: [1, 'two', null] } },
    ...overrides,
  };
}

/** The audit log repository: append, list (filters, newest first, cursor), retention. */
export function auditContract(ctx: () => Ctx): void {
  it('audit: append and list newest first, the record as written', async () => {
    const { storage } = ctx();
    const first = entry(T0);
    const second = entry(T0 + 1, {
      actor: 'operator',
      actorOrganization: null,
      tokenId: null,
      tokenName: null,
    });
    await storage.audit.append(first);
    await storage.audit.append(second);
    expect(await storage.audit.list()).toEqual([second, first]);
  });

  it('audit filters: an organization sees entries of its resources and of its own tokens; action; resource; limit', async () => {
    const { storage } = ctx();
    const mine = entry(T0);
    const byMe = entry(T0 + 1, {
      organizationId: 'globex',
      action: 'installation.create',
      resourceId: 'inst_1',
    });
    const onMine = entry(T0 + 2, {
      actor: 'operator',
      actorOrganization: null,
      action: 'space.owner',
      resourceId: 'sp1',
    });
    const other = entry(T0 + 3, { organizationId: 'globex', actorOrganization: 'globex', resourceId: 'g' });
    const none = entry(T0 + 4, { organizationId: null, actorOrganization: null, actor: 'operator' });
    for (const e of [mine, byMe, onMine, other, none]) await storage.audit.append(e);
    const ids = (list: AuditRecord[]) => list.map((e) => e.id);
    expect(ids(await storage.audit.list({ organizationId: 'acme' }))).toEqual(ids([onMine, byMe, mine]));
    expect(ids(await storage.audit.list({ organizationId: 'globex' }))).toEqual(ids([other, byMe]));
    expect(ids(await storage.audit.list({ action: 'space.owner' }))).toEqual(ids([onMine]));
    expect(ids(await storage.audit.list({ resourceId: 'hello' }))).toEqual(ids([none, mine]));
    expect(ids(await storage.audit.list({ organizationId: 'acme', resourceId: 'hello' }))).toEqual(
      ids([mine]),
    );
    expect(ids(await storage.audit.list({ limit: 2 }))).toEqual(ids([none, other]));
    expect(await storage.audit.list({ organizationId: 'initech' })).toEqual([]);
  });

  it('audit: pages with a cursor: entries older than the given id', async () => {
    const { storage } = ctx();
    const all = Array.from({ length: 7 }, (_, i) => entry(T0 + i));
    for (const e of all) await storage.audit.append(e);
    const pages: string[][] = [];
    let before: string | undefined;
    for (;;) {
      const page = await storage.audit.list({ limit: 3, ...(before ? { before } : {}) });
      if (page.length === 0) break;
      pages.push(page.map((e) => e.id));
      before = page[page.length - 1]?.id;
    }
    const newestFirst = all.map((e) => e.id).reverse();
    expect(pages).toEqual([newestFirst.slice(0, 3), newestFirst.slice(3, 6), newestFirst.slice(6)]);
  });

  it('audit retention: deletes at most `limit` entries older than the cut-off, oldest first', async () => {
    const { storage } = ctx();
    const all = Array.from({ length: 5 }, (_, i) => entry(T0 + i * 1000));
    for (const e of all) await storage.audit.append(e);
    expect(await storage.audit.deleteOlderThan(T0 + 3000, 2)).toBe(2);
    expect((await storage.audit.list()).map((e) => e.at)).toEqual([T0 + 4000, T0 + 3000, T0 + 2000]);
    expect(await storage.audit.deleteOlderThan(T0 + 3000, 100)).toBe(1);
    expect(await storage.audit.deleteOlderThan(T0 + 3000, 100)).toBe(0);
    expect((await storage.audit.list()).map((e) => e.at)).toEqual([T0 + 4000, T0 + 3000]);
    await expect(storage.audit.deleteOlderThan(T0, 0)).rejects.toThrow();
  });
}
