import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../../host/src/access/principal.js';
import { CliError } from '../errors.js';
import { describeExpiry, fromNow } from '../host/identity.js';
import type { Io } from '../io.js';
import { runCli } from '../program.js';
import { ttlMinutes } from './portal.js';
import { expiryOf } from './tokens.js';

const NOW = Date.parse('2026-01-01T00:00:00.000Z');

describe('expiryOf', () => {
  it('turns --expires-in and --expires-at into an ISO time, never without either', () => {
    expect(expiryOf({}, NOW)).toBeUndefined();
    expect(expiryOf({ expiresIn: '30d' }, NOW)).toBe('2026-01-31T00:00:00.000Z');
    expect(expiryOf({ expiresIn: '12h' }, NOW)).toBe('2026-01-01T12:00:00.000Z');
    expect(expiryOf({ expiresIn: '90m' }, NOW)).toBe('2026-01-01T01:30:00.000Z');
    expect(expiryOf({ expiresIn: '2W' }, NOW)).toBe('2026-01-15T00:00:00.000Z');
    expect(expiryOf({ expiresAt: '2026-06-01T00:00:00+02:00' }, NOW)).toBe('2026-05-31T22:00:00.000Z');
  });

  it('refuses a malformed duration, a past or unreadable time, and both flags', () => {
    for (const expiresIn of ['30', 'd', '0d', '1.5h', '3 months', '-2d']) {
      expect(() => expiryOf({ expiresIn }, NOW)).toThrow(/expected a whole number and a unit m, h, d or w/);
    }
    expect(() => expiryOf({ expiresAt: 'tomorrow' }, NOW)).toThrow(/is not an ISO 8601 time/);
    expect(() => expiryOf({ expiresAt: '2025-12-31T00:00:00Z' }, NOW)).toThrow(/is in the past/);
    expect(() => expiryOf({ expiresIn: '1d', expiresAt: '2026-02-01T00:00:00Z' }, NOW)).toThrow(
      new CliError('usage', 'give --expires-in or --expires-at, not both.', 2),
    );
  });
});

describe('ttlMinutes and expiry words', () => {
  it('accepts 1 to 1440 whole minutes', () => {
    expect(ttlMinutes('1')).toBe(1);
    expect(ttlMinutes('1440')).toBe(1440);
    for (const bad of ['0', '1441', '1.5', 'ten', '']) {
      expect(() => ttlMinutes(bad)).toThrow(/expected whole minutes from 1 to 1440/);
    }
  });

  it('says how far a time is', () => {
    expect(fromNow('2026-01-31T00:00:00.000Z', NOW)).toBe('in 30 days');
    expect(fromNow('2026-01-01T01:00:00.000Z', NOW)).toBe('in 1 hour');
    expect(fromNow('2026-01-01T00:00:20.000Z', NOW)).toBe('in 1 minute');
    expect(fromNow('2025-12-31T22:00:00.000Z', NOW)).toBe('2 hours ago');
    expect(describeExpiry(null, NOW)).toBe('never expires');
    expect(describeExpiry('2026-01-01T00:15:00.000Z', NOW)).toBe(
      'expires 2026-01-01T00:15:00.000Z (in 15 minutes)',
    );
  });
});

describe('platform tokens --help', () => {
  it("lists exactly the host's scopes", async () => {
    const out: string[] = [];
    const io: Io = {
      stdout: (t) => out.push(t),
      stderr: () => {},
      stdoutIsTTY: false,
      stderrIsTTY: false,
      env: {},
      cwd: fileURLToPath(new URL('.', import.meta.url)),
    };
    expect(await runCli(['node', 'platform', 'tokens', '--help'], io)).toBe(0);
    const listed = out
      .join('')
      .match(/Scopes: ([^(]*) \(/)?.[1]
      ?.split(/,\s*/)
      .map((s) => s.trim());
    expect(listed).toEqual(ALL_SCOPES);
  });
});
