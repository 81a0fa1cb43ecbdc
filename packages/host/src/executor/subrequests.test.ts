import { describe, expect, it } from 'vitest';
import { SubrequestBudget } from './subrequests.js';

describe('SubrequestBudget', () => {
  it('allows max per invocation, then names the deployment and the setting', () => {
    const budget = new SubrequestBudget(2);
    budget.begin('k', 'hello@1#abc');
    expect(budget.take('k')).toBeNull();
    expect(budget.take('k')).toBeNull();
    expect(budget.take('k')).toMatch(
      /hello@1#abc reached its limit of 2 subrequests per invocation \(PLATFORM_INVOCATION_MAX_SUBREQUESTS\)/,
    );
    budget.end('k');
    budget.begin('k', 'hello@1#abc'); // a new invocation: a new window
    expect(budget.take('k')).toBeNull();
  });

  it('shares max x calls between calls of one deployment in flight together; others are apart', () => {
    const budget = new SubrequestBudget(1);
    budget.begin('k', 'a@1');
    budget.begin('k', 'a@1');
    budget.begin('other', 'b@1');
    expect([budget.take('k'), budget.take('k')]).toEqual([null, null]);
    expect(budget.take('k')).not.toBeNull();
    expect(budget.take('other')).toBeNull();
    budget.end('k');
    expect(budget.take('k')).not.toBeNull(); // the window of the call still running is spent
  });

  it('refuses a request of a deployment with no invocation, and a limit of 0 refuses all', () => {
    expect(new SubrequestBudget(5).take('never')).toMatch(/no invocation/);
    const none = new SubrequestBudget(0);
    none.begin('k', 'a@1');
    expect(none.take('k')).toMatch(/limit of 0/);
    expect(() => new SubrequestBudget(-1)).toThrow(RangeError);
  });
});
