import { expect, it } from 'vitest';
import { slowInstallations } from './delivery.js';
import { captureLogs } from './test-support.js';

it('tracks slow installations and tells the operator when one becomes slow (warn, with its share) and recovers (info)', () => {
  const { lines, logger } = captureLogs();
  const slow = slowInstallations(logger, 16);
  expect(slow.has('inst_dead')).toBe(false);
  slow.update('inst_dead', true);
  expect(slow.has('inst_dead')).toBe(true);
  expect(slow.has('inst_other')).toBe(false);
  slow.update('inst_dead', false);
  expect(slow.has('inst_dead')).toBe(false);
  expect(
    lines.map(({ level, installation, maxInFlight, msg }) => ({ level, installation, maxInFlight, msg })),
  ).toEqual([
    {
      level: 40,
      installation: 'inst_dead',
      maxInFlight: 16,
      msg: 'webhook endpoint of installation inst_dead is slow (an attempt ran past 500 ms): at most 16 of its deliveries in flight until it has answered quickly for a minute',
    },
    {
      level: 30,
      installation: 'inst_dead',
      maxInFlight: undefined,
      msg: 'webhook endpoint of installation inst_dead is no longer slow',
    },
  ]);
});
