import { join } from 'node:path';
import type { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, SHOTS, useExampleSession } from '../../../packages/dashboard/test/harness';
import { startOAuthProvider } from '../../../packages/dashboard/test/oauth-provider';
import { itPassesCheck, publishAndInstall } from '../../../test/examples/support';

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

const example = useExampleSession('examples/connect', { width: 1100, height: 1000 });
let provider: OAuth2Server;

beforeAll(async () => {
  provider = await startOAuthProvider();
});

afterAll(() => provider?.stop());

describe('examples/connect', () => {
  itPassesCheck('examples/connect');

  it('renders its own configuration screen: connect with OAuth, choose a project, save; the installation becomes active', async () => {
    const { id, status } = await publishAndInstall<{ id: string; status: string }>(
      example,
      'tracker-connect',
      {
        TRACKER_CLIENT_ID: 'tracker-client',
        TRACKER_CLIENT_SECRET: 'tracker-secret',
        TRACKER_AUTHORIZE_URL: `${provider.issuer.url}/authorize`,
        TRACKER_TOKEN_URL: `${provider.issuer.url}/token`,
      },
    );
    expect(status).toBe('pending');

    await example.page.goto(`${example.t.url}/installations/${id}#token=${encodeURIComponent(ADMIN_TOKEN)}`);
    const screen = example.page.getByRole('region', { name: 'Configuration screen' });
    await poll(() => screen.getByRole('note').textContent()).toContain('Connect your tracker account');

    const popup = example.context.waitForEvent('page');
    await screen.getByRole('button', { name: 'Connect' }).click();
    const win = await popup;
    await poll(() => win.textContent('body')).toContain('You may close this window');
    await win.close();

    await screen.getByRole('button', { name: 'Refresh' }).click();
    await poll(() => screen.getByRole('note').textContent()).toContain('Connected to the tracker.');
    await screen.getByLabel('Project').selectOption('mobile');
    await screen.getByRole('button', { name: 'Save' }).click();
    await poll(() => screen.textContent()).toContain('Saved: mobile.');
    // The page reloads the installation after the component's action: active, no field form.
    await poll(() => example.page.getByTestId('installation-status').textContent()).toBe('Active');
    expect(await example.page.getByRole('button', { name: 'Save configuration' }).count()).toBe(0);
    const after = await example.t.api<{ status: string; configuration: { project?: string } }>(
      'GET',
      `/v1/installations/${id}`,
    );
    expect(after.body.configuration.project).toBe('mobile');
    expect(after.body.status).toBe('active');
    await example.page.screenshot({
      path: join(SHOTS, 'example-connect.png'),
      fullPage: true,
    });
  });
});
