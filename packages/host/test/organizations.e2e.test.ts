import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../src/access/principal.js';
import { BACKENDS } from './backends.js';
import { eventually, type Receiver, startReceiver, startTestHost, type TestHost } from './helpers.js';
import { createToken, publishTiny, TINY_BUNDLE, tinyManifest } from './organizations.js';

interface Installation {
  id: string;
  owner?: string;
  space?: string;
}
interface ErrorBody {
  error: { code: string; message: string };
}
interface AuditEntry {
  action: string;
  organization: string | null;
  actor: { kind: string; organization?: string; tokenName?: string };
  resource: { type: string; id: string };
}

/**
 * Organizations end to end, with real receivers: who sees and installs what (visibility, install links),
 * who publishes a name, where an organization installs, which space events reach whom as the directory
 * changes, the audit log, and the author's view of runs. docs/security.md "Organizations".
 */
describe.each(BACKENDS)('organizations (%s)', (backend) => {
  let t: TestHost;
  let A = '';
  let B = '';
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await startTestHost({ PLATFORM_ALLOW_PRIVATE_TARGETS: '1' }, backend);
    for (const id of ['org-a', 'org-b'])
      expect((await t.api('POST', '/v1/organizations', { id })).status).toBe(201);
    for (const [space, organization] of [
      ['sp-a', 'org-a'],
      ['sp-b', 'org-b'],
    ]) {
      expect((await t.api('PUT', `/v1/spaces/${space}/owner`, { organization })).status).toBe(200);
    }
    A = (await createToken(t, 'org-a', 'a-ci', ALL_SCOPES)).token;
    B = (await createToken(t, 'org-b', 'b-ci', ALL_SCOPES)).token;
  }, 60_000);
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t.close();
  });

  async function receiver(): Promise<Receiver> {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  }

  /** Installs with a token; answers the status and the body. */
  function install(token: string, body: Record<string, unknown>) {
    return t.api<Installation & ErrorBody>('POST', '/v1/installations', body, token);
  }

  /** A webhook installation receiving `space_content_updated`, in a space or into an organization. */
  async function webhook(token: string, place: { space: string } | { organization: string }, r: Receiver) {
    const res = await install(token, {
      integration: 'webhook',
      ...place,
      configuration: { url: r.url, space_content_updated: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  /** Posts `space_content_updated` for a space (operator); answers its event id. */
  async function post(spaceId: string): Promise<string> {
    const res = await t.api<{ eventId: string }>('POST', '/v1/events', {
      type: 'space_content_updated',
      spaceId,
      revisionId: `rev-${Math.random()}`,
    });
    expect(res.status).toBe(202);
    return res.body.eventId;
  }

  /** The event ids an installation's deliveries carry: decided when the event is accepted. */
  async function deliveredEvents(id: string): Promise<string[]> {
    const res = await t.api<{ deliveries: Array<{ eventId: string }> }>(
      'GET',
      `/v1/installations/${id}/deliveries`,
    );
    expect(res.status).toBe(200);
    return res.body.deliveries.map((d) => d.eventId).sort();
  }

  const bodies = (r: Receiver) =>
    r.received.map((q) => JSON.parse(q.body) as { eventId: string; spaceId?: string });

  it('visibility: private, unlisted and public x installer A, B without link, B with link, B with a wrong or rotated link', async () => {
    for (const visibility of ['private', 'unlisted', 'public']) {
      await publishTiny(t, tinyManifest(`vis-${visibility}`, visibility), A);
    }
    const linkOf = async (name: string) => {
      const res = await t.api<{ installLink: string }>(
        'GET',
        `/v1/integrations/${name}/install-link`,
        undefined,
        A,
      );
      expect(res.status).toBe(200);
      expect(res.body.installLink).toMatch(/^pil_/);
      return res.body.installLink;
    };
    // B cannot read A's link
    expect((await t.api('GET', '/v1/integrations/vis-unlisted/install-link', undefined, B)).status).toBe(404);
    const outcome: Record<string, number[]> = {};
    for (const visibility of ['private', 'unlisted', 'public']) {
      const integration = `vis-${visibility}`;
      const link = await linkOf(integration);
      const statuses = [
        (await install(A, { integration, space: 'sp-a' })).status,
        (await install(B, { integration, space: 'sp-b' })).status,
        (await install(B, { integration, space: 'sp-b', installLink: link })).status,
        (await install(B, { integration, space: 'sp-b', installLink: `${link}x` })).status,
      ];
      const rotated = await t.api<{ installLink: string }>(
        'POST',
        `/v1/integrations/${integration}/install-link/rotate`,
        undefined,
        A,
      );
      expect(rotated.status).toBe(200);
      expect(rotated.body.installLink).not.toBe(link);
      statuses.push((await install(B, { integration, space: 'sp-b', installLink: link })).status);
      statuses.push(
        (await install(B, { integration, space: 'sp-b', installLink: rotated.body.installLink })).status,
      );
      outcome[visibility] = statuses;
    }
    // A | B, no link | B, link | B, wrong link | B, old link after rotation | B, new link
    expect(outcome).toEqual({
      private: [201, 404, 404, 404, 404, 404],
      unlisted: [201, 404, 201, 404, 404, 201],
      public: [201, 201, 201, 201, 201, 201],
    });
    const refused = await install(B, { integration: 'vis-unlisted', space: 'sp-b' });
    expect(refused.body.error.message).toContain('give it as `installLink`');

    for (const token of [A, B]) {
      const market = await t.api<{ integrations: Array<{ name: string; organization: string }> }>(
        'GET',
        '/v1/marketplace',
        undefined,
        token,
      );
      const names = market.body.integrations.map((i) => i.name);
      expect(names).toContain('vis-public');
      expect(names).not.toContain('vis-private');
      expect(names).not.toContain('vis-unlisted');
      expect(market.body.integrations.find((i) => i.name === 'vis-public')?.organization).toBe('org-a');
    }
    expect((await t.api('GET', '/v1/integrations/vis-private', undefined, B)).status).toBe(404);
    expect((await t.api('GET', '/v1/integrations/vis-unlisted', undefined, B)).status).toBe(404);
    expect((await t.api('GET', '/v1/integrations/vis-public', undefined, B)).status).toBe(200);
    expect((await t.api('GET', '/v1/integrations/vis-private', undefined, A)).status).toBe(200);
  });

  it('publishing: a name belongs to its organization, a manifest names only its own, only the owner or the operator unpublishes', async () => {
    await publishTiny(t, tinyManifest('pub-name', 'public'), A);
    const taken = await t.api<ErrorBody>(
      'POST',
      '/v1/integrations',
      { manifest: tinyManifest('pub-name', 'public'), bundle: TINY_BUNDLE },
      B,
    );
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('name_taken');
    const foreign = await t.api<ErrorBody>(
      'POST',
      '/v1/integrations',
      { manifest: tinyManifest('pub-other', 'public', 'org-a'), bundle: TINY_BUNDLE },
      B,
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('wrong_organization');
    expect(foreign.body.error.message).toContain('names organization "org-a"');
    // the version B tried is not there: A's is the latest
    const latest = await t.api<{ version: string; organization?: string }>(
      'GET',
      '/v1/integrations/pub-name',
      undefined,
      A,
    );
    expect(latest.body.version).toBe('1');

    expect((await t.api('DELETE', '/v1/integrations/pub-name', undefined, B)).status).toBe(404);
    expect((await t.api('GET', '/v1/integrations/pub-name', undefined, A)).status).toBe(200);
    expect((await t.api('DELETE', '/v1/integrations/pub-name', undefined, A)).status).toBe(204);
    expect((await t.api('GET', '/v1/integrations/pub-name')).status).toBe(404);
    await publishTiny(t, tinyManifest('pub-op', 'private'), A);
    expect((await t.api('DELETE', '/v1/integrations/pub-op')).status).toBe(204);
  });

  it("places: B installs neither into A's space nor as A; A's space events never reach B, and B's never reach A", async () => {
    const intoA = await install(B, {
      integration: 'webhook',
      space: 'sp-a',
      configuration: { url: 'https://example.com/h' },
    });
    expect(intoA.status).toBe(404);
    expect(intoA.body.error.message).toBe(
      `Space "sp-a" is not one of organization "org-b"'s spaces: an organization installs only into the spaces and sites the platform records as its own (PUT /v1/spaces/{id}/owner, operator token).`,
    );
    const asA = await install(B, {
      integration: 'webhook',
      organization: 'org-a',
      configuration: { url: 'https://example.com/h' },
    });
    expect(asA.status).toBe(404);
    expect(asA.body.error.message).toBe('Organization "org-a" was not found.');

    const [rA, rAorg, rB, rBorg] = await Promise.all([receiver(), receiver(), receiver(), receiver()]);
    const aSpace = await webhook(A, { space: 'sp-a' }, rA);
    const aOrg = await webhook(A, { organization: 'org-a' }, rAorg);
    const bSpace = await webhook(B, { space: 'sp-b' }, rB);
    const bOrg = await webhook(B, { organization: 'org-b' }, rBorg);
    expect([aSpace.owner, aOrg.owner, bSpace.owner, bOrg.owner]).toEqual([
      'org-a',
      'org-a',
      'org-b',
      'org-b',
    ]);
    const eventA = await post('sp-a');
    const eventB = await post('sp-b');
    // routing is decided when an event is accepted: the deliveries are there already
    expect(await deliveredEvents(aSpace.id)).toEqual([eventA]);
    expect(await deliveredEvents(aOrg.id)).toEqual([eventA]);
    expect(await deliveredEvents(bSpace.id)).toEqual([eventB]);
    expect(await deliveredEvents(bOrg.id)).toEqual([eventB]);
    await Promise.all([rA, rAorg, rB, rBorg].map((r) => r.waitFor(1)));
    expect(bodies(rA).map((b) => b.eventId)).toEqual([eventA]);
    expect(bodies(rAorg).map((b) => b.eventId)).toEqual([eventA]);
    expect(bodies(rB).map((b) => b.eventId)).toEqual([eventB]);
    expect(bodies(rBorg).map((b) => b.eventId)).toEqual([eventB]);
  });

  it('directory changes: a space given to B stops reaching A; an operator installation in a space without owner keeps receiving and is adopted', async () => {
    expect((await t.api('PUT', '/v1/spaces/sp-move/owner', { organization: 'org-a' })).status).toBe(200);
    const [rA, rB, rOp] = await Promise.all([receiver(), receiver(), receiver()]);
    const aInst = await webhook(A, { space: 'sp-move' }, rA);
    const before = await post('sp-move');
    await rA.waitFor(1);
    const moved = await t.api<{ previous: string; organization: string }>('PUT', '/v1/spaces/sp-move/owner', {
      organization: 'org-b',
    });
    expect(moved.body).toMatchObject({ previous: 'org-a', organization: 'org-b' });
    const bInst = await webhook(B, { space: 'sp-move' }, rB);
    const after = await post('sp-move');
    expect(await deliveredEvents(aInst.id)).toEqual([before]);
    expect(await deliveredEvents(bInst.id)).toEqual([after]);
    await rB.waitFor(1);
    expect(bodies(rA).map((b) => b.eventId)).toEqual([before]);
    // A still owns its installation (it sees it), it just receives nothing from B's space
    expect((await t.api<Installation>('GET', `/v1/installations/${aInst.id}`, undefined, A)).body.owner).toBe(
      'org-a',
    );

    const opInst = await webhook(t.host.adminToken, { space: 'sp-free' }, rOp);
    expect(opInst.owner).toBeUndefined();
    const first = await post('sp-free');
    await rOp.waitFor(1);
    expect((await t.api('GET', `/v1/installations/${opInst.id}`, undefined, A)).status).toBe(404);
    const adopted = await t.api<{ adoptedInstallations: number; previous: string | null }>(
      'PUT',
      '/v1/spaces/sp-free/owner',
      { organization: 'org-a' },
    );
    expect(adopted.body).toMatchObject({ adoptedInstallations: 1, previous: null });
    const seen = await t.api<Installation>('GET', `/v1/installations/${opInst.id}`, undefined, A);
    expect(seen.status).toBe(200);
    expect(seen.body.owner).toBe('org-a');
    const second = await post('sp-free');
    await rOp.waitFor(2);
    expect(await deliveredEvents(opInst.id)).toEqual([first, second].sort());
  });

  it("visibility from public to private (a new version): B's installation keeps working, B cannot make a new one", async () => {
    await publishTiny(t, tinyManifest('flip', 'public'), A);
    const kept = await install(B, { integration: 'flip', space: 'sp-b', configuration: { channel: 'b' } });
    expect(kept.status, JSON.stringify(kept.body)).toBe(201);
    await publishTiny(t, tinyManifest('flip', 'private'), A);
    expect((await install(B, { integration: 'flip', space: 'sp-b' })).status).toBe(404);
    expect((await t.api('GET', '/v1/integrations/flip', undefined, B)).status).toBe(404);
    // the documented decision: an installation made while public stays, and receives the space's events
    const eventId = await post('sp-b');
    await eventually(
      async () => {
        const res = await t.api<{ invocations: Array<{ eventId: string | null }> }>(
          'GET',
          `/v1/installations/${kept.body.id}/logs`,
          undefined,
          B,
        );
        return res.body.invocations.some((i) => i.eventId === eventId);
      },
      20_000,
      "the event's invocation of B's installation",
    );
    const audit = await t.api<{ entries: AuditEntry[] }>(
      'GET',
      '/v1/audit?action=integration.visibility',
      undefined,
      A,
    );
    expect(audit.body.entries.map((e) => e.resource.id)).toContain('flip');
  });

  it("audit: A's log lists A's actions with actor and token name, never a secret; B's shows none of A's", async () => {
    const r = await receiver();
    const inst = await webhook(A, { space: 'sp-a' }, r);
    const secret = await t.api<{ secret: string }>(
      'GET',
      `/v1/installations/${inst.id}/webhook-secret`,
      undefined,
      A,
    );
    expect(secret.body.secret).toMatch(/^whsec_/);
    const made = await t.api<{ token: string }>(
      'POST',
      '/v1/organizations/org-a/tokens',
      { name: 'a-made', scopes: ['audit:read'] },
      A,
    );
    expect(made.status).toBe(201);
    const portal = await t.api<{ token: string }>(
      'POST',
      '/v1/portal/sessions',
      { installation: inst.id },
      A,
    );
    expect(portal.status).toBe(201);
    await t.api('GET', '/v1/integrations/vis-unlisted/install-link', undefined, A);

    const mine = await t.api<{ entries: AuditEntry[] }>('GET', '/v1/audit?limit=200', undefined, A);
    expect(mine.status).toBe(200);
    const byA = mine.body.entries.filter(
      (e) => e.actor.kind === 'organization' && e.actor.tokenName === 'a-ci',
    );
    const actions = new Set(byA.map((e) => e.action));
    for (const action of [
      'integration.publish',
      'installation.create',
      'webhook_secret.reveal',
      'token.create',
    ]) {
      expect(actions, action).toContain(action);
    }
    expect(byA.every((e) => e.actor.organization === 'org-a')).toBe(true);
    expect(
      mine.body.entries.find((e) => e.action === 'webhook_secret.reveal' && e.resource.id === inst.id),
    ).toMatchObject({
      organization: 'org-a',
      actor: { kind: 'organization', tokenName: 'a-ci' },
    });
    const theirs = await t.api<{ entries: AuditEntry[] }>('GET', '/v1/audit?limit=200', undefined, B);
    expect(theirs.body.entries.length).toBeGreaterThan(0);
    for (const entry of theirs.body.entries) {
      expect([entry.organization, entry.actor.organization], JSON.stringify(entry)).toContain('org-b');
    }
    expect(theirs.body.entries.some((e) => e.actor.tokenName === 'a-ci')).toBe(false);
    // another organization's log is not B's to read
    expect((await t.api('GET', '/v1/audit?organization=org-a', undefined, B)).status).toBe(400);
    const everything = await t.api<{ entries: AuditEntry[] }>('GET', '/v1/audit?limit=500');
    expect(everything.status).toBe(200);
    expect(everything.body.entries.some((e) => e.action === 'portal_session.create')).toBe(true);
    const text = JSON.stringify([mine.body, theirs.body, everything.body]);
    for (const prefix of ['whsec_', 'pot_', 'pps_', 'pil_']) expect(text).not.toContain(prefix);
    expect(text).not.toContain(secret.body.secret);
  });

  it("the author's view: A reads the runs of B's installation of its public integration, without B's configuration", async () => {
    await publishTiny(t, tinyManifest('runs-pub', 'public'), A);
    const b = await install(B, {
      integration: 'runs-pub',
      space: 'sp-b',
      configuration: { channel: 'b-private-channel-4711' },
    });
    expect(b.status).toBe(201);
    const eventId = await post('sp-b');
    const runs = await eventually(
      async () => {
        const res = await t.api<{ runs: Array<{ installationId: string; eventId: string | null }> }>(
          'GET',
          '/v1/integrations/runs-pub/runs',
          undefined,
          A,
        );
        expect(res.status).toBe(200);
        return res.body.runs.some((r) => r.eventId === eventId) ? res.body : null;
      },
      20_000,
      "the runs of B's installation",
    );
    expect(runs.runs.every((r) => r.installationId === b.body.id)).toBe(true);
    expect(JSON.stringify(runs)).not.toContain('b-private-channel-4711');
    // B has no author's view of A's integration
    expect((await t.api('GET', '/v1/integrations/runs-pub/runs', undefined, B)).status).toBe(404);
  });
});
