import { join } from 'node:path';
import { CHECK_STEPS, runCheck } from '@platform/cli';
import { describe, expect, it } from 'vitest';
import { delayOf } from '../src/index';

const dir = join(import.meta.dirname, '..');

describe('examples/reminders', () => {
  it('passes platform check (its set-up queues a task)', async () => {
    expect(await runCheck(dir, { steps: CHECK_STEPS })).toEqual({ ok: true, errors: [], warnings: [] });
  });

  it('waits the configured delay, 5 s when unset or invalid', () => {
    expect(delayOf({ delay_seconds: 12.4 })).toBe(12);
    expect(delayOf({})).toBe(5);
    expect(delayOf({ delay_seconds: -1 })).toBe(5);
  });
});
