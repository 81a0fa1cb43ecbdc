import { decodeLogsHeader, envelopeRequest } from '@platform/runtime/testing';
import { describe, expect, it } from 'vitest';
import hello from '../src/index';
import { fetchEvent, helloEnvironment } from './harness';

const environment = helloEnvironment();

describe('examples/hello in Node', () => {
  it('logs installation_setup with the installation status', async () => {
    const event = {
      type: 'installation_setup',
      eventId: 'evt_setup',
      installationId: 'inst_hello',
      status: 'pending',
      target: 'space',
      configuration: {},
    };
    const response = await hello.fetch(envelopeRequest(event, { environment }));
    expect(await response.json()).toEqual({ ok: true });
    const lines = decodeLogsHeader(response.headers.get('x-platform-logs'));
    expect(lines).toMatchObject([{ level: 'info', message: 'hello: installation inst_hello is pending' }]);
  });

  it('answers 404 JSON below the public endpoint for unknown paths', async () => {
    const response = await hello.fetch(envelopeRequest(fetchEvent('/nope'), { environment }));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: 'No such path' } });
  });

  it('lists every channel without a query', async () => {
    const response = await hello.fetch(envelopeRequest(fetchEvent('/channels'), { environment }));
    const body = (await response.json()) as { options: { value: string; label: string }[] };
    expect(body.options.map((o) => o.value)).toEqual(['general', 'random', 'docs', 'releases']);
  });
});
