import { describe, expect, it } from 'vitest';
import * as guards from './guards';
import { isScope } from './scopes';

/**
 * What a guard answers for a value: `true`/`false` (the `is*` guards), or, for the
 * `describe*Problem` ones, `undefined` (no problem) or a pattern the description of the problem matches.
 */
type Answer = boolean | RegExp | undefined;

const uiRender = { type: 'ui_render', eventId: 'e', componentId: 'c', props: {} };
const environment = { apiEndpoint: 'http://h', apiTokens: {}, integration: {} };

const CASES: Array<[title: string, guard: (value: unknown) => unknown, answers: Array<[unknown, Answer]>]> = [
  [
    'isRecord rejects arrays and null',
    guards.isRecord,
    [
      [{}, true],
      [[], false],
      [null, false],
    ],
  ],
  [
    'describeEventProblem names the missing field',
    guards.describeEventProblem,
    [
      [[], /not a JSON object/],
      [{ eventId: 'e' }, /"type"/],
      [{ type: '', eventId: 'e' }, /"type"/],
      [{ type: 'x' }, /"eventId"/],
      [{ type: 'x', eventId: 'e' }, undefined],
    ],
  ],
  [
    'isFetchEventRequest requires string headers',
    guards.isFetchEventRequest,
    [
      [{ method: 'GET', url: 'https://x/', headers: { a: 'b' } }, true],
      [{ method: 'GET', url: 'https://x/', headers: { a: 1 } }, false],
      [{ method: 'GET', headers: {} }, false],
    ],
  ],
  [
    'isUIRenderEvent checks componentId, props, state and action',
    guards.isUIRenderEvent,
    [
      [uiRender, true],
      [{ ...uiRender, action: { action: 'go' } }, true],
      [{ ...uiRender, action: { name: 'go' } }, false],
      [{ ...uiRender, state: 3 }, false],
      [{ ...uiRender, componentId: 1 }, false],
    ],
  ],
  [
    'describeEnvironmentProblem checks the parts the runtime needs',
    guards.describeEnvironmentProblem,
    [
      [environment, undefined],
      [{ ...environment, apiEndpoint: 1 }, /apiEndpoint/],
      [{ ...environment, secrets: 'x' }, /secrets/],
    ],
  ],
  [
    'isScope knows the documented scope values',
    isScope,
    [
      ['site:views:read', true],
      ['site:views:write', false],
    ],
  ],
];

describe('guards', () => {
  it.each(CASES)('%s', (_title, guard, answers) => {
    for (const [value, answer] of answers) {
      if (answer instanceof RegExp) expect(guard(value)).toMatch(answer);
      else expect(guard(value)).toBe(answer);
    }
  });
});
