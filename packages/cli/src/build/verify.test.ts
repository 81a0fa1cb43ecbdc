import { describe, expect, it } from 'vitest';
import { eventProblems } from './verify.js';

describe('eventProblems', () => {
  it('knows the host set-up events of every place, which need no scope', () => {
    expect(
      eventProblems({ scopes: [] }, [
        'installation_setup',
        'space_installation_setup',
        'site_installation_setup',
      ]),
    ).toEqual([]);
  });

  it('still refuses a name that is no event type, suggesting the closest', () => {
    const [problem] = eventProblems({ scopes: [] }, ['site_installation_setp']);
    expect(problem?.message).toContain('`site_installation_setp`, which is not an event type');
    expect(problem?.message).toContain('Did you mean `site_installation_setup`?');
  });
});
