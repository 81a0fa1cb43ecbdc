import { describe, expect, it } from 'vitest';
import { parseAssignments } from './commands/shared.js';
import { parseAge } from './commands/tail.js';
import { isSiteEvent, sampleEvent, TRIGGER_EVENT_TYPES } from './samples.js';

describe('sampleEvent', () => {
  it.each(TRIGGER_EVENT_TYPES)('%s carries its place and a fresh event id', (type) => {
    const a = sampleEvent(type, { space: 'space_x', site: 'site_y' });
    const b = sampleEvent(type);
    expect(a.type).toBe(type);
    expect(a.eventId).not.toBe(b.eventId);
    if (isSiteEvent(type)) expect(a.siteId).toBe('site_y');
    else expect(a.spaceId).toBe('space_x');
  });

  it('site events carry a visitor and absolute URLs (docs/events.md)', () => {
    const view = sampleEvent('site_view');
    expect(new URL(String(view.url)).protocol).toBe('https:');
    expect(view.visitor).toMatchObject({
      anonymousId: expect.any(String),
      ip: expect.any(String),
      cookies: {} as object,
    });
  });
});

describe('argument parsing', () => {
  it('parses key=value with JSON values', () => {
    expect(
      parseAssignments(['url=https://x/y?a=b', 'on=true', 'n=3', 'gone=null', 'name=plain text']),
    ).toEqual({
      url: 'https://x/y?a=b',
      on: true,
      n: 3,
      gone: null,
      name: 'plain text',
    });
    expect(() => parseAssignments(['novalue'])).toThrow(/expected key=value/);
  });

  it('parses ages', () => {
    expect(parseAge('10m')).toBe(600_000);
    expect(parseAge('30s')).toBe(30_000);
    expect(parseAge('250')).toBe(250);
    expect(() => parseAge('soon')).toThrow(/--since must look like/);
  });
});
