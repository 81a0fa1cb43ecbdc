import { describe, expect, it } from 'vitest';
import { parseEvent, verifyEvent } from './events.js';
import { sign } from './signature.js';

const feedback = {
  eventId: 'evt_fb',
  type: 'page_feedback',
  siteId: 'site_1',
  spaceId: 'space_1',
  installationId: 'inst_1',
  pageId: 'page_1',
  feedback: { rating: 'good', comment: 'Très utile' },
  visitor: { anonymousId: 'anon', userAgent: 'UA', ip: '203.0.113.9', cookies: {} },
  url: 'https://docs.example.com/a',
  referrer: 'https://example.com',
};

describe('verifyEvent', () => {
  it('returns the typed event after checking the signature', async () => {
    const body = JSON.stringify(feedback);
    const header = await sign(body, 'whsec_x');
    const event = await verifyEvent(body, header, 'whsec_x');
    expect(event.type).toBe('page_feedback');
    if (event.type === 'page_feedback') expect(event.feedback.comment).toBe('Très utile');
  });

  it('does not parse when the signature is wrong', async () => {
    const header = await sign('{}', 'whsec_x');
    await expect(verifyEvent('not json', header, 'whsec_x')).rejects.toMatchObject({
      code: 'signature_mismatch',
    });
  });

  it('rejects a signed body that is not an event', async () => {
    for (const body of ['not json', '[1]', '{"type":"x"}', '{"eventId":"e","type":5}', 'null']) {
      const header = await sign(body, 'whsec_x');
      await expect(verifyEvent(body, header, 'whsec_x'), body).rejects.toMatchObject({
        code: 'invalid_body',
        status: 400,
      });
    }
  });
});

describe('parseEvent', () => {
  it('passes unknown event types through (forward compatible)', () => {
    expect(parseEvent('{"eventId":"e1","type":"future_event","x":1}')).toMatchObject({
      type: 'future_event',
      x: 1,
    });
  });

  it('rejects invalid UTF-8', () => {
    expect(() => parseEvent(new Uint8Array([0x7b, 0xff, 0x7d]))).toThrow(/UTF-8 JSON/);
  });
});
