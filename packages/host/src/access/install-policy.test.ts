import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import { decideInstall, type InstallDecision, type InstallFacts } from './install-policy.js';
import type { Principal } from './principal.js';

const foreignPrivate = { name: 'hello', owner: 'globex', visibility: 'private' };

const acme: Principal = {
  kind: 'organization',
  organizationId: 'acme',
  tokenId: 'tok_1',
  tokenName: 'ci',
  scopes: ['installations:manage'],
};

/** The facts of an installation of acme's own private `hello` by acme into space sp1, which acme owns. */
function facts(overrides: Partial<InstallFacts> = {}): InstallFacts {
  return {
    principal: acme,
    integration: { name: 'hello', owner: 'acme', visibility: 'private' },
    holdsInstallLink: false,
    target: 'space',
    targetId: 'sp1',
    directoryOwner: 'acme',
    ...overrides,
  };
}

function refused(decision: InstallDecision): HttpError {
  if (decision.ok) throw new Error(`expected a refusal, got ${JSON.stringify(decision)}`);
  expect(decision.error).toBeInstanceOf(HttpError);
  return decision.error;
}

describe('decideInstall: the operator', () => {
  it('installs anything into an organization, which owns the installation', () => {
    expect(
      decideInstall(facts({ principal: { kind: 'operator' }, target: 'organization', targetId: 'initech' })),
    ).toEqual({ ok: true, owner: 'initech', organization: 'initech' });
  });

  it('installs an organization installation without a named organization, owned by nobody', () => {
    expect(
      decideInstall(facts({ principal: { kind: 'operator' }, target: 'organization', targetId: null })),
    ).toEqual({ ok: true, owner: null, organization: null });
  });

  it("installs a private integration of another organization into a space, on behalf of the space's owner", () => {
    expect(decideInstall(facts({ principal: { kind: 'operator' }, directoryOwner: 'initech' }))).toEqual({
      ok: true,
      owner: 'initech',
      organization: null,
    });
  });

  it('installs into a space or site the directory knows no owner of: owned by nobody (adopted later)', () => {
    for (const target of ['space', 'site'] as const) {
      expect(decideInstall(facts({ principal: { kind: 'operator' }, target, directoryOwner: null }))).toEqual(
        { ok: true, owner: null, organization: null },
      );
    }
  });
});

describe('decideInstall: principals that never install', () => {
  it('refuses an installation token and a portal session with 403', () => {
    const principals: Principal[] = [
      { kind: 'installation', installationId: 'inst_1' },
      { kind: 'portal', sessionId: 'psn_1', organizationId: 'acme', installationId: null },
    ];
    for (const principal of principals) {
      const error = refused(
        decideInstall(
          facts({ principal, integration: { name: 'hello', owner: 'acme', visibility: 'public' } }),
        ),
      );
      expect(error.status).toBe(403);
      expect(error.code).toBe('forbidden');
      expect(error.message).toBe('This needs the operator token or an organization token.');
    }
  });
});

describe('decideInstall: an organization and the visibility of the integration', () => {
  it('installs its own integration whatever its visibility, and owns the installation', () => {
    for (const visibility of ['private', 'unlisted', 'public']) {
      expect(decideInstall(facts({ integration: { name: 'hello', owner: 'acme', visibility } }))).toEqual({
        ok: true,
        owner: 'acme',
        organization: null,
      });
    }
  });

  it("answers 404 to another organization's private integration, naming the install link", () => {
    const error = refused(decideInstall(facts({ integration: foreignPrivate, holdsInstallLink: true })));
    expect(error.status).toBe(404);
    expect(error.code).toBe('not_found');
    expect(error.message).toBe(
      'Integration "hello" was not found (an unlisted integration installs only with its install link: give it as `installLink`).',
    );
  });

  it('answers 404 to an unlisted integration without its install link, and installs it with the link', () => {
    const unlisted = { name: 'hello', owner: 'globex', visibility: 'unlisted' };
    const error = refused(decideInstall(facts({ integration: unlisted })));
    expect(error.status).toBe(404);
    expect(error.message).toContain('give it as `installLink`');
    expect(decideInstall(facts({ integration: unlisted, holdsInstallLink: true }))).toEqual({
      ok: true,
      owner: 'acme',
      organization: null,
    });
  });

  it('installs a public integration of another organization without any link', () => {
    expect(
      decideInstall(facts({ integration: { name: 'hello', owner: 'globex', visibility: 'public' } })),
    ).toEqual({ ok: true, owner: 'acme', organization: null });
  });

  it('answers 404 without the install-link hint to a visibility it does not know', () => {
    const error = refused(
      decideInstall(facts({ integration: { name: 'hello', owner: 'globex', visibility: 'galactic' } })),
    );
    expect(error.status).toBe(404);
    expect(error.message).toBe('Integration "hello" was not found.');
  });

  it('treats an integration without owner as not its own', () => {
    const error = refused(
      decideInstall(facts({ integration: { name: 'x', owner: null, visibility: 'private' } })),
    );
    expect(error.status).toBe(404);
  });
});

describe('decideInstall: an organization and the place', () => {
  it('installs into itself when the request names no organization, or names its own', () => {
    for (const targetId of [null, 'acme']) {
      expect(decideInstall(facts({ target: 'organization', targetId, directoryOwner: null }))).toEqual({
        ok: true,
        owner: 'acme',
        organization: 'acme',
      });
    }
  });

  it('answers 404 to an installation into another organization', () => {
    const error = refused(decideInstall(facts({ target: 'organization', targetId: 'globex' })));
    expect(error.status).toBe(404);
    expect(error.message).toBe('Organization "globex" was not found.');
  });

  it('answers 404 to a space or site the directory gives another organization, or nobody', () => {
    for (const [target, word] of [
      ['space', 'Space'],
      ['site', 'Site'],
    ] as const) {
      for (const directoryOwner of ['globex', null]) {
        const error = refused(decideInstall(facts({ target, targetId: 'x1', directoryOwner })));
        expect(error.status).toBe(404);
        expect(error.code).toBe('not_found');
        expect(error.message).toBe(
          `${word} "x1" is not one of organization "acme"'s ${target}s: an organization installs only into the spaces and sites the platform records as its own (PUT /v1/${target}s/{id}/owner, operator token).`,
        );
      }
    }
  });

  it('installs into a site it owns', () => {
    expect(decideInstall(facts({ target: 'site', targetId: 'site1', directoryOwner: 'acme' }))).toEqual({
      ok: true,
      owner: 'acme',
      organization: null,
    });
  });

  it('checks the visibility before the place: a private integration into a foreign space is "not found" as an integration', () => {
    const error = refused(decideInstall(facts({ integration: foreignPrivate, directoryOwner: 'globex' })));
    expect(error.message).toMatch(/^Integration "hello" was not found/);
  });
});
