import { createColors } from 'picocolors';
import { describe, expect, it } from 'vitest';
import type { DeliveryView } from './client.js';
import { formatAttempt } from './format.js';

const c = createColors(false);
const delivery = {
  id: 'dlv_1',
  eventId: 'evt_1',
  eventType: 'space_content_updated',
  state: 'succeeded',
  series: 1,
  createdAt: '2026-11-28T10:42:00.000Z',
  payload: {},
  attempts: [],
} as unknown as DeliveryView;
const attempt = (over: Record<string, unknown>) =>
  ({
    number: 1,
    series: 1,
    startedAt: '2026-11-28T10:42:01.000Z',
    durationMs: 8,
    ...over,
  }) as DeliveryView['attempts'][number];

describe('formatAttempt', () => {
  it('shows the HTTP status, a broker acknowledgement, or the error', () => {
    expect(formatAttempt(delivery, attempt({ statusCode: 200 }), c)).toBe(
      '10:42:01 space_content_updated evt_1 dlv_1 attempt 1 → 200 (8 ms)\n',
    );
    expect(formatAttempt(delivery, attempt({ acknowledged: true }), c)).toContain('→ acknowledged (8 ms)');
    expect(formatAttempt(delivery, attempt({ error: 'broker_unavailable: down' }), c)).toContain(
      '→ broker_unavailable: down (8 ms)',
    );
  });
});
