import { decodeLogsHeader, envelopeRequest } from '@platform/runtime/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import webhook, { WEBHOOK_EVENT_TYPES_BY_PLACE } from './index';
import { startTestHost, TEST_TOKEN, webhookEnvironment } from './test-host';

const CURRENT = 'whsec_currentcurrentcurrentcurrentcurrentcurWXYZ';
const ROTATED = 'whsec_rotatedrotatedrotatedrotatedrotatedrot9876';
const HOOK_URL = 'https://hooks.example.com/services/T0KEN-IN-PATH?sig=querysecret';

let host: Awaited<ReturnType<typeof startTestHost>>;

function resetRoutes(id: string): void {
  for (const key of Object.keys(host.routes)) delete host.routes[key];
  host.routes[`GET /v1/installations/${id}/webhook-secret`] = { status: 200, body: { secret: CURRENT } };
  host.routes[`POST /v1/installations/${id}/webhook-secret/rotate`] = {
    status: 200,
    body: { secret: ROTATED, previousExpiresAt: '2026-11-23T05:00:00.000Z' },
  };
}

beforeAll(async () => {
  host = await startTestHost({});
});
afterAll(async () => {
  await host.close();
});
beforeEach(() => {
  host.requests.length = 0;
});

/** All the text of a rendered ContentKit tree, one line per text/button. */
function textOf(element: unknown): string {
  if (Array.isArray(element)) return element.map(textOf).join('\n');
  if (typeof element !== 'object' || element === null) return '';
  const e = element as { text?: string; label?: string; children?: unknown };
  return [e.text, e.label, textOf(e.children)].filter((s) => s !== undefined && s !== '').join('\n');
}

async function render(
  place: 'space' | 'site',
  configuration: Record<string, unknown>,
  extra: { state?: object; action?: object } = {},
) {
  const environment = webhookEnvironment(place, host.url, configuration);
  resetRoutes(`inst_${place}`);
  const response = await webhook.fetch(
    envelopeRequest(
      { type: 'ui_render', eventId: 'evt_render', componentId: 'webhook-settings', props: {}, ...extra },
      { environment },
    ),
  );
  const raw = await response.text();
  return { response, raw, body: JSON.parse(raw) as { element: unknown; state: Record<string, unknown> } };
}

describe('installation_setup', () => {
  it('is acknowledged and logs id, target and selected events, never a secret or the URL path', async () => {
    const configuration = {
      url: HOOK_URL,
      site_view: true,
      page_feedback: false,
      space_content_updated: true,
    };
    const environment = webhookEnvironment('site', host.url, configuration);
    const response = await webhook.fetch(
      envelopeRequest(
        {
          type: 'installation_setup',
          eventId: 'evt_setup',
          installationId: 'inst_site',
          status: 'active',
          target: 'site',
          configuration,
        },
        { environment },
      ),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    const lines = decodeLogsHeader(response.headers.get('x-platform-logs'));
    const setup = lines.find((l) => l.message.includes('inst_site'));
    expect(setup?.level).toBe('info');
    expect(setup?.message).toContain('target site');
    expect(setup?.message).toContain('events [site_view]');
    expect(setup?.message).toContain('https://hooks.example.com/…');
    const all = JSON.stringify(lines);
    for (const secret of ['whsec_', 'T0KEN-IN-PATH', 'querysecret', TEST_TOKEN])
      expect(all).not.toContain(secret);
  });

  it('says when no event of the place is selected', async () => {
    const configuration = { url: HOOK_URL, site_view: true };
    const response = await webhook.fetch(
      envelopeRequest(
        {
          type: 'installation_setup',
          eventId: 'evt_setup2',
          installationId: 'inst_space',
          status: 'pending',
          target: 'space',
          configuration,
        },
        { environment: webhookEnvironment('space', host.url, configuration) },
      ),
    );
    const messages = decodeLogsHeader(response.headers.get('x-platform-logs')).map((l) => l.message);
    expect(messages).toContain('webhook installation inst_space: no space event selected yet');
    expect(messages.join('\n')).toContain('events []');
  });
});

describe('webhook-settings component', () => {
  it('for a site installation shows the URL, site events only and the masked secret', async () => {
    const { response, raw, body } = await render('site', { url: HOOK_URL, site_view: true });
    expect(response.status).toBe(200);
    const text = textOf(body.element);
    expect(text).toContain(`URL: ${HOOK_URL}`);
    expect(text).toContain('✓ Site view (site_view)');
    expect(text).toContain('✗ Page feedback (page_feedback): not selected');
    expect(text).not.toContain('space_content_updated');
    expect(text).toContain('whsec_…WXYZ');
    expect(text).toContain('Rotate secret');
    expect(raw).not.toContain(CURRENT);
    expect(host.requests).toEqual([
      {
        method: 'GET',
        path: '/v1/installations/inst_site/webhook-secret',
        authorization: `Bearer ${TEST_TOKEN}`,
      },
    ]);
  });

  it('for a space installation shows only space_content_updated, and warns when nothing is selected', async () => {
    const { body } = await render('space', { url: HOOK_URL, space_content_updated: false, site_view: true });
    const text = textOf(body.element);
    for (const type of WEBHOOK_EVENT_TYPES_BY_PLACE.site) expect(text).not.toContain(type);
    expect(text).toContain('✗ Space content updated (space_content_updated): not selected');
    expect(text).toContain('No event is selected');
  });

  it('"Rotate secret" calls the host, then re-renders with the new masked secret', async () => {
    const { raw, body } = await render(
      'site',
      { url: HOOK_URL, page_feedback: true },
      { state: { secretHint: 'whsec_…WXYZ' }, action: { action: 'rotate_secret' } },
    );
    expect(host.requests).toEqual([
      {
        method: 'POST',
        path: '/v1/installations/inst_site/webhook-secret/rotate',
        authorization: `Bearer ${TEST_TOKEN}`,
      },
    ]);
    expect(body.state).toEqual({ secretHint: 'whsec_…9876', previousExpiresAt: '2026-11-23T05:00:00.000Z' });
    const text = textOf(body.element);
    expect(text).toContain('whsec_…9876');
    expect(text).not.toContain('whsec_…WXYZ');
    expect(text).toContain('until 2026-11-23T05:00:00.000Z');
    expect(raw).not.toContain(ROTATED);
  });

  it('shows a refused rotation in the panel and keeps the state', async () => {
    const environment = webhookEnvironment('space', host.url, { url: HOOK_URL, space_content_updated: true });
    resetRoutes('inst_space');
    host.routes['POST /v1/installations/inst_space/webhook-secret/rotate'] = {
      status: 403,
      body: { error: { code: 'forbidden', message: 'Operator token required' } },
    };
    const response = await webhook.fetch(
      envelopeRequest(
        {
          type: 'ui_render',
          eventId: 'evt_r',
          componentId: 'webhook-settings',
          props: {},
          state: { secretHint: 'whsec_…WXYZ' },
          action: { action: 'rotate_secret' },
        },
        { environment },
      ),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { element: unknown; state: Record<string, unknown> };
    expect(body.state.secretHint).toBe('whsec_…WXYZ');
    expect(textOf(body.element)).toContain('Rotating the secret failed');
    expect(textOf(body.element)).toContain('Operator token required');
  });

  it('still renders when the host refuses to show the secret', async () => {
    resetRoutes('inst_site');
    const environment = webhookEnvironment('site', host.url, { url: HOOK_URL }, 'inst_other');
    const response = await webhook.fetch(
      envelopeRequest(
        { type: 'ui_render', eventId: 'e', componentId: 'webhook-settings', props: {} },
        { environment },
      ),
    );
    const body = (await response.json()) as { element: unknown };
    expect(textOf(body.element)).toContain('Secret not shown (the host answered 404 not_found)');
  });
});

describe('public endpoint (fetch)', () => {
  const call = async (method: string, suffix = '') => {
    const environment = webhookEnvironment('site', host.url, { url: HOOK_URL, site_view: true });
    const url = `${environment.installation?.urls.publicEndpoint}${suffix}`;
    return webhook.fetch(
      envelopeRequest(
        { type: 'fetch', eventId: 'evt_f', request: { method, url, headers: {} } },
        { environment, ...(method === 'POST' ? { body: '{}' } : {}) },
      ),
    );
  };

  it('answers GET with the event types of the place', async () => {
    const response = await call('GET');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      integration: 'webhook',
      place: 'site',
      events: ['site_view', 'page_feedback'],
    });
  });

  it('answers other methods 405 in plain text and sub-paths 404', async () => {
    const post = await call('POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.headers.get('content-type')).toContain('text/plain');
    expect(await post.text()).toContain('not allowed');
    expect((await call('GET', '/oauth')).status).toBe(404);
  });
});
