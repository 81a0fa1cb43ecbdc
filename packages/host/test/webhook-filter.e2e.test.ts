import { sampleEvent } from '@platform/events';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';
import { endpointHost } from './endpoint-host.js';

// Payload filters (docs/contracts.md "Endpoint settings"): checked when saved, evaluated at fan-out; a
// filtered event makes no delivery and is counted (GET /metrics, the delivery log's endpoint state).

function feedback(siteId: string, rating: string, pageId = 'page_install') {
  const event = sampleEvent('page_feedback', { site: siteId });
  return { ...event, pageId, feedback: { ...event.feedback, rating } };
}

async function filteredTotal(api: (m: string, p: string) => Promise<{ body: unknown }>): Promise<number> {
  const text = String((await api('GET', '/metrics')).body);
  const line = text.split('\n').find((l) => l.startsWith('platform_webhook_filtered_events_total '));
  return Number(line?.split(' ')[1] ?? Number.NaN);
}

describe.each(BACKENDS)('webhook payload filters (%s)', (backend) => {
  const h = endpointHost(backend);

  it('delivers only what the filter matches; the others make no delivery and are counted', async () => {
    const r = await h.receiver();
    const { res, placeId } = await h.install(
      {
        url: r.url,
        filter: {
          and: [
            { field: 'feedback.rating', in: ['bad', 'terrible'] },
            { not: { field: 'pageId', prefix: 'page_internal' } },
          ],
        },
      },
      'site',
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const before = await filteredTotal(h.t.api);
    await h.post(feedback(placeId, 'good'));
    await h.post(feedback(placeId, 'bad'));
    await h.post(feedback(placeId, 'bad', 'page_internal_1'));
    await h.post(feedback(placeId, 'terrible'));
    const deliveries = await h.settled(res.body.id, 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received.map((q) => JSON.parse(q.body).feedback.rating).sort()).toEqual(['bad', 'terrible']);
    expect(deliveries).toHaveLength(2);
    expect(await filteredTotal(h.t.api)).toBe(before + 2);
    const log = await h.t.api<{ endpoint: { filtered: number } }>(
      'GET',
      `/v1/installations/${res.body.id}/deliveries`,
    );
    expect(log.body.endpoint.filtered).toBe(2);
    // A repeated eventId is no new event: not counted again.
    const again = feedback(placeId, 'good');
    await h.post(again);
    await h.post(again);
    await expect
      .poll(
        async () =>
          (
            await h.t.api<{ endpoint: { filtered: number } }>(
              'GET',
              `/v1/installations/${res.body.id}/deliveries`,
            )
          ).body.endpoint.filtered,
      )
      .toBe(3);
  });

  it('exists on a nested field; removing the filter delivers everything again', async () => {
    const r = await h.receiver();
    const { res, placeId } = await h.install(
      { url: r.url, filter: { field: 'visitor.cookies.beta', exists: true } },
      'site',
    );
    expect(res.status).toBe(201);
    const withCookies = (cookies: Record<string, string>) => {
      const event = feedback(placeId, 'ok');
      return { ...event, visitor: { ...event.visitor, cookies } };
    };
    await h.post(withCookies({}));
    await h.post(withCookies({ beta: '1' }));
    await h.post(withCookies({ other: '1' }));
    await h.settled(res.body.id, 1);
    const patched = await h.t.api('PATCH', `/v1/installations/${res.body.id}`, {
      configuration: { filter: null },
    });
    expect(patched.status).toBe(200);
    await h.post(withCookies({}));
    await h.settled(res.body.id, 2);
    expect(r.received.map((q) => JSON.parse(q.body).visitor.cookies)).toEqual([{ beta: '1' }, {}]);
  });

  it('refuses a wrong filter with a 400 naming its path, and changes nothing', async () => {
    const r = await h.receiver();
    const { res } = await h.install(
      { url: r.url, filter: { field: 'feedback.rating', equals: 'bad' } },
      'site',
    );
    const bad = await h.t.api<{ error: { code: string; message: string } }>(
      'PATCH',
      `/v1/installations/${res.body.id}`,
      {
        configuration: {
          filter: {
            or: [
              { field: 'feedback.rating', equals: 'bad' },
              { field: 'score', gt: 'high' },
            ],
          },
        },
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_configuration');
    expect(bad.body.error.message).toBe('configuration.filter.or[1].gt: gt compares with a number');
    const read = await h.t.api<{ configuration: Record<string, unknown> }>(
      'GET',
      `/v1/installations/${res.body.id}`,
    );
    expect(read.body.configuration.filter).toEqual({ field: 'feedback.rating', equals: 'bad' });
    const atInstall = await h.install({ url: r.url, filter: { field: 'x', matches: '.*' } }, 'site');
    expect(atInstall.res.status).toBe(400);
    expect(atInstall.res.body.error.message).toContain('configuration.filter.matches: unknown key');
  });
});
