import { describe, expect, it } from 'vitest';
import { itPassesCheck } from '../../../test/examples/support';
import { delayOf } from '../src/index';

describe('examples/reminders', () => {
  itPassesCheck('examples/reminders', 'passes platform check (its set-up queues a task)');

  it('waits the configured delay, 5 s when unset or invalid', () => {
    expect(delayOf({ delay_seconds: 12.4 })).toBe(12);
    expect(delayOf({})).toBe(5);
    expect(delayOf({ delay_seconds: -1 })).toBe(5);
  });
});
