import { expect, it } from 'vitest';
import { type Ctx, installationInput } from './fixtures.js';

/** The organizations repository: organizations, the directory of space and site owners, install links. */
export function organizationsContract(ctx: () => Ctx): void {
  it('organizations: create once, ensure never changes an existing one, list oldest first', async () => {
    const { storage } = ctx();
    expect(await storage.organizations.create({ id: 'acme', name: 'Acme Inc.', now: 2000 })).toBe(true);
    expect(await storage.organizations.create({ id: 'acme', name: 'Other', now: 3000 })).toBe(false);
    await storage.organizations.ensure('acme', 'Renamed', 4000);
    await storage.organizations.ensure('globex', undefined, 1000);
    await storage.organizations.ensure('initech', 'Initech', 5000);
    expect(await storage.organizations.get('acme')).toEqual({
      id: 'acme',
      name: 'Acme Inc.',
      createdAt: 2000,
    });
    // the name is the id unless given
    expect(await storage.organizations.get('globex')).toEqual({
      id: 'globex',
      name: 'globex',
      createdAt: 1000,
    });
    expect(await storage.organizations.get('missing')).toBeNull();
    expect((await storage.organizations.list()).map((o) => o.id)).toEqual(['globex', 'acme', 'initech']);
  });

  it('directory: set, replace and remove the owner of a space or site; what an organization owns', async () => {
    const { storage } = ctx();
    await storage.organizations.ensure('acme');
    await storage.organizations.ensure('globex');
    expect(await storage.organizations.ownerOf('space', 'sp1')).toBeNull();
    await storage.organizations.setOwner('space', 'sp1', 'acme', 10);
    await storage.organizations.setOwner('site', 'sp1', 'globex', 11);
    await storage.organizations.setOwner('space', 'sp2', 'acme', 12);
    // spaces and sites are separate namespaces
    expect(await storage.organizations.ownerOf('space', 'sp1')).toBe('acme');
    expect(await storage.organizations.ownerOf('site', 'sp1')).toBe('globex');
    expect(await storage.organizations.ownedBy('acme')).toEqual([
      { kind: 'space', resourceId: 'sp1', organizationId: 'acme', updatedAt: 10 },
      { kind: 'space', resourceId: 'sp2', organizationId: 'acme', updatedAt: 12 },
    ]);
    await storage.organizations.setOwner('space', 'sp1', 'globex', 20);
    expect(await storage.organizations.ownerOf('space', 'sp1')).toBe('globex');
    expect((await storage.organizations.ownedBy('acme')).map((r) => r.resourceId)).toEqual(['sp2']);
    expect(await storage.organizations.ownedBy('globex')).toEqual([
      { kind: 'site', resourceId: 'sp1', organizationId: 'globex', updatedAt: 11 },
      { kind: 'space', resourceId: 'sp1', organizationId: 'globex', updatedAt: 20 },
    ]);
    expect(await storage.organizations.removeOwner('space', 'sp1')).toBe(true);
    expect(await storage.organizations.removeOwner('space', 'sp1')).toBe(false);
    expect(await storage.organizations.ownerOf('space', 'sp1')).toBeNull();
    // the directory names only organizations that exist
    await expect(storage.organizations.setOwner('space', 'sp9', 'nobody')).rejects.toThrow();
    expect(await storage.organizations.ownerOf('space', 'sp9')).toBeNull();
  });

  it('directory: a change of owner moves the routing epoch on (routes read before are stale)', async () => {
    const { storage } = ctx();
    await storage.organizations.ensure('acme');
    await storage.installations.create(installationInput({ spaceId: 'sp1' }));
    const before = (await storage.installations.routes({ spaceId: 'sp1' })).epoch!;
    await storage.organizations.setOwner('space', 'sp1', 'acme');
    const after = (await storage.installations.routes({ spaceId: 'sp1' })).epoch!;
    expect(after).toBeGreaterThan(before);
    await storage.organizations.removeOwner('space', 'sp1');
    expect((await storage.installations.routes({ spaceId: 'sp1' })).epoch!).toBeGreaterThan(after);
  });

  it('adopt: the installations of a space or site without owner go to the organization, no others', async () => {
    const { storage } = ctx();
    await storage.organizations.ensure('acme');
    await storage.organizations.ensure('globex');
    const orphan = await storage.installations.create(installationInput({ spaceId: 'sp1' }));
    const orphan2 = await storage.installations.create(installationInput({ spaceId: 'sp1' }));
    const owned = await storage.installations.create(
      installationInput({ spaceId: 'sp1', ownerOrganization: 'globex' }),
    );
    const elsewhere = await storage.installations.create(installationInput({ spaceId: 'sp2' }));
    const site = await storage.installations.create(
      installationInput({ target: 'site', spaceId: null, siteId: 'sp1' }),
    );
    expect(await storage.installations.adopt('space', 'sp1', 'acme', 5000)).toBe(2);
    const owner = async (id: string) => (await storage.installations.get(id))?.ownerOrganization;
    expect(await owner(orphan.id)).toBe('acme');
    expect(await owner(orphan2.id)).toBe('acme');
    expect((await storage.installations.get(orphan.id))?.updatedAt).toBe(5000);
    expect(await owner(owned.id)).toBe('globex');
    expect(await owner(elsewhere.id)).toBeNull();
    expect(await owner(site.id)).toBeNull();
    // nothing left to adopt
    expect(await storage.installations.adopt('space', 'sp1', 'globex')).toBe(0);
    expect(await storage.installations.adopt('site', 'sp1', 'globex')).toBe(1);
    expect(await owner(site.id)).toBe('globex');
    expect((await storage.installations.list({ ownerOrganization: 'acme' })).map((i) => i.id).sort()).toEqual(
      [orphan.id, orphan2.id].sort(),
    );
  });

  it('install links: made once at the first ask, replaced by a rotation', async () => {
    const { storage } = ctx();
    expect(await storage.organizations.installLink('hello', 'pil_first')).toBe('pil_first');
    expect(await storage.organizations.installLink('hello', 'pil_second')).toBe('pil_first');
    await storage.organizations.rotateInstallLink('hello', 'pil_third');
    expect(await storage.organizations.installLink('hello', 'pil_fourth')).toBe('pil_third');
    // a rotation of an integration without a link makes one
    await storage.organizations.rotateInstallLink('other', 'pil_other');
    expect(await storage.organizations.installLink('other', 'pil_x')).toBe('pil_other');
  });
}
