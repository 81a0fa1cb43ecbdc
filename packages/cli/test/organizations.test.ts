import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Host } from '@platform/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../../host/test/backends.js';
import { cliEnv, linkScaffold, run, scaffold, startTestHost } from './helpers.js';

/** The operator's side of the story, as an operator does it with curl. */
async function operatorApi(host: Host, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${host.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
}

/** A command line's words (none of them holds a space). */
const words = (line: string) => line.split(' ');

describe.each(BACKENDS)('the CLI as an organization (%s)', (backend) => {
  let host: Host;
  let close: () => Promise<void>;
  let operator: string[] = [];
  let operatorToken = '';

  beforeAll(async () => {
    const started = await startTestHost({}, backend);
    ({ host, close } = started);
    operatorToken = started.token;
    operator = ['--url', host.url, '--token', operatorToken];
    for (const id of ['acme', 'globex']) {
      const created = await operatorApi(host, operatorToken, 'POST', '/v1/organizations', { id, name: id });
      expect(created.status).toBe(201);
    }
  });

  afterAll(async () => {
    await close?.();
  });

  it('operator creates tokens; an organization logs in, sees itself, manages its tokens, publishes and is refused what it may not do', async () => {
    const env = cliEnv();

    // the operator belongs to no organization: it must name one
    const unnamed = await run(
      ['tokens', 'create', '--name', 'x', '--scope', 'deliveries:read', ...operator],
      {
        env,
      },
    );
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toBe(
      'error: which organization? the operator token (from --token) belongs to no organization: pass --organization <id>, e.g. `platform tokens create --organization acme --name x --scope deliveries:read`.\n',
    );
    const badScope = await run(
      [...words('tokens create --organization acme --name x --scope deliveries:write'), ...operator],
      { env },
    );
    expect(badScope.code).toBe(1);
    expect(badScope.stderr).toMatch(/unknown scope "deliveries:write"; known: integrations:publish, /);
    const badExpiry = await run(
      [
        'tokens',
        'create',
        '--organization',
        'acme',
        '--name',
        'x',
        '--scope',
        'audit:read',
        '--expires-in',
        '3 months',
        ...operator,
      ],
      { env },
    );
    expect(badExpiry).toMatchObject({ code: 2 });
    expect(badExpiry.stderr).toMatch(
      /--expires-in "3 months": expected a whole number and a unit m, h, d or w/,
    );

    // the operator makes the owner's token: shown once, with the warning
    const made = await run(
      [
        ...words(
          'tokens create --organization acme --name owner --scope tokens:manage,integrations:publish --scope portal:create --expires-in 30d',
        ),
        ...operator,
      ],
      { env },
    );
    expect(made.code, made.stderr).toBe(0);
    const ownerToken = made.stdout.match(/^(pot_\S+)$/m)?.[1] ?? '';
    expect(ownerToken).toMatch(/^pot_/);
    expect(made.stdout).toMatch(
      /^Created token "owner" \(tok_[\w-]+\) of organization acme\n {2}scopes: tokens:manage, integrations:publish, portal:create\n {2}expires \S+ \(in 30 days\)\n\npot_\S+\n\nThis token is shown once: store it now/,
    );

    // login with the organization token says who it is
    const login = await run(['login', '--url', host.url, '--token', ownerToken], { env });
    expect(login.code, login.stderr).toBe(0);
    const file = join(env.XDG_CONFIG_HOME ?? '', 'platform', 'config.json');
    expect(login.stdout).toMatch(
      new RegExp(
        `^Logged in to ${host.url} as organization acme; saved in ${file}\\n {2}token name "owner", id tok_[\\w-]+\\n {2}scopes: tokens:manage, integrations:publish, portal:create\\n {2}expires \\S+ \\(in 30 days\\)\\n$`,
      ),
    );

    const whoami = await run(['whoami'], { env });
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.stdout).toMatch(
      new RegExp(
        `^Organization acme on ${host.url} \\(from ${file}\\)\\n {2}token pot_\\S+…\\S{4} \\(from ${file}\\), accepted; 0 integration\\(s\\) visible\\n {2}token name "owner"`,
      ),
    );
    expect(whoami.stdout).not.toContain(ownerToken);
    const who = JSON.parse((await run(['whoami', '--json'], { env })).stdout) as Record<string, unknown>;
    expect(who).toMatchObject({
      url: host.url,
      principal: 'organization',
      organization: 'acme',
      tokenName: 'owner',
      scopes: ['tokens:manage', 'integrations:publish', 'portal:create'],
      expiresAt: expect.stringMatching(/^\d{4}-/),
    });

    // tokens of its own organization, the organization coming from the login
    const reader = await run(['tokens', 'create', '--name', 'reader', '--scope', 'portal:create', '--json'], {
      env,
    });
    expect(reader.code, reader.stderr).toBe(0);
    const readerToken = JSON.parse(reader.stdout) as { id: string; token: string; organization: string };
    expect(readerToken.organization).toBe('acme');
    const beyond = await run(['tokens', 'create', '--name', 'x', '--scope', 'audit:read'], { env });
    expect(beyond.code).toBe(1);
    expect(beyond.stderr).toMatch(/cannot grant `audit:read`: a token grants only scopes it holds itself/);
    expect(beyond.stderr).toMatch(
      /\n {2}hint: ask an owner of the organization for a token with --scope audit:read\.\n$/,
    );

    const list = await run(['tokens', 'list'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+NAME\s+SCOPES\s+STATUS\s+EXPIRES\s+LAST USED\n/);
    expect(list.stdout).toMatch(
      /^tok_[\w-]+\s+owner\s+tokens:manage,integrations:publish,portal:create\s+active\s+\d{4}-/m,
    );
    expect(list.stdout).toMatch(
      new RegExp(`^${readerToken.id}\\s+reader\\s+portal:create\\s+active\\s+never\\s+-$`, 'm'),
    );
    const listed = JSON.parse((await run(['tokens', 'list', '--json'], { env })).stdout) as {
      tokens: unknown[];
    };
    expect(listed.tokens).toHaveLength(2);

    // another organization's tokens: the host's 404, as for a missing one
    const foreign = await run(['tokens', 'list', '--organization', 'globex'], { env });
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/Organization "globex"/);

    // a missing scope names the scope and how to get it
    const scoped = await run(['tokens', 'list', '--token', readerToken.token], { env });
    expect(scoped.code).toBe(1);
    expect(scoped.stderr).toMatch(/This organization token lacks the scope `tokens:manage`/);
    expect(scoped.stderr).toMatch(
      /\n {2}hint: ask an owner of the organization for a token with --scope tokens:manage\.\n$/,
    );

    // publishing: the manifest names no organization -> the token's; another one -> refused
    const dir = await scaffold('org-published', env);
    linkScaffold(dir);
    const manifest = join(dir, 'platform-manifest.yaml');
    const text = readFileSync(manifest, 'utf8');
    writeFileSync(manifest, text.replace(/^organization: .*\n/m, ''));
    const published = await run(['publish'], { cwd: dir, env });
    expect(published.code, published.stderr).toBe(0);
    expect(published.stdout).toMatch(/^Published org-published version 1 .* for organization acme\n/);
    expect(await host.context.storage.integrations.getLatest('org-published')).toMatchObject({
      manifest: expect.objectContaining({ organization: 'acme' }),
    });
    // the operator without an organization is still refused before anything is sent
    const operatorPublish = await run(['publish', ...operator], { cwd: dir, env });
    expect(operatorPublish.code).toBe(2);
    expect(operatorPublish.stderr).toMatch(/publishing needs an organization and none is set/);

    writeFileSync(manifest, text.replace(/^organization: .*$/m, 'organization: globex'));
    const wrong = await run(['publish'], { cwd: dir, env });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /platform-manifest\.yaml names organization "globex", but this token belongs to organization "acme"/,
    );
    const noPublish = await run(['publish', '--organization', 'acme', '--token', readerToken.token], {
      cwd: dir,
      env,
    });
    expect(noPublish.code).toBe(1);
    expect(noPublish.stderr).toMatch(/lacks the scope `integrations:publish`/);
    expect(noPublish.stderr).toMatch(
      /hint: ask an owner of the organization for a token with --scope integrations:publish\./,
    );

    // portal links: the organization's own by default; revoked, the link's token is refused
    const portal = await run(['portal', 'open', '--ttl', '30'], { env });
    expect(portal.code, portal.stderr).toBe(0);
    const [, sessionId, url] =
      portal.stdout.match(
        /^Portal session (psn_[\w-]+) for every webhook installation of organization acme; expires \S+ \(in 30 minutes\)\n(\S+)\n/,
      ) ?? [];
    expect(url).toMatch(/\/portal\/#token=pps_/);
    const sessionToken = decodeURIComponent(url?.match(/token=([^&]+)/)?.[1] ?? '');
    expect((await operatorApi(host, sessionToken, 'GET', '/v1/whoami')).body).toMatchObject({
      principal: 'portal',
    });
    const revokedPortal = await run(['portal', 'revoke', sessionId ?? ''], { env });
    expect(revokedPortal).toMatchObject({ code: 0, stdout: `Revoked portal session ${sessionId}\n` });
    expect((await operatorApi(host, sessionToken, 'GET', '/v1/whoami')).status).toBe(401);
    const both = await run(['portal', 'open', '--installation', 'inst_x', '--organization', 'acme'], { env });
    expect(both).toMatchObject({
      code: 2,
      stderr: 'error: give --installation or --organization, not both.\n',
    });
    const operatorPortal = await run(['portal', 'open', '--organization', 'acme', '--json', ...operator], {
      env,
    });
    expect(JSON.parse(operatorPortal.stdout)).toMatchObject({ organization: 'acme', installation: null });

    // a revoked token is refused with the host's reason
    const revoked = await run(['tokens', 'revoke', readerToken.id], { env });
    expect(revoked).toMatchObject({
      code: 0,
      stdout: `Revoked token ${readerToken.id} of organization acme\n`,
    });
    const refused = await run(['whoami', '--token', readerToken.token], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `error: the host at ${host.url} refused the token from --token: This organization token was revoked; create a new one (platform tokens create).\n`,
    );
    expect((await run(['tokens', 'list', '--json'], { env })).stdout).toMatch(/"status": "revoked"/);
  }, 180_000);
});
