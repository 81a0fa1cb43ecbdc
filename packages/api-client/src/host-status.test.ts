import { describe, expect, it } from 'vitest';
import { describeQueue, formatLag, heldNote, slowEndpointPlace } from './host-status';

describe('host status for people (CLI and dashboard)', () => {
  it('formats the lag in seconds under a minute and in minutes above', () => {
    expect([0, 0.04, 2.46, 59.9, 185].map(formatLag)).toEqual(['none', '0.0 s', '2.5 s', '59.9 s', '3 min']);
  });

  it('describes a queue on one line, with held deliveries only when there are some', () => {
    const idle = { queued: 0, due: 0, held: 0, running: 0, oldestDueAgeSeconds: 0 };
    expect(describeQueue(idle)).toBe('0 waiting, 0 due, 0 in flight, not behind');
    expect(heldNote(idle)).toBe('');
    expect(describeQueue({ queued: 5, due: 2, held: 1, running: 3, oldestDueAgeSeconds: 1.25 })).toBe(
      '5 waiting (1 held for slow endpoints), 2 due, 3 in flight, 1.3 s behind',
    );
  });

  it('names a slow endpoint by integration and place', () => {
    expect(slowEndpointPlace({ integration: 'webhook', target: 'space', targetId: 'docs' })).toBe(
      'webhook in space docs',
    );
    expect(slowEndpointPlace({ integration: 'webhook', target: 'organization', targetId: null })).toBe(
      'webhook in organization',
    );
  });
});
