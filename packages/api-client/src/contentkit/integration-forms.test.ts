import { describe, expect, it } from 'vitest';
import { validateRenderOutput } from './validate';

/*
 * Forms real integrations render (issue 31, cause 3), each accepted, and each mistake in them
 * explained by path.
 */

function problems(element: unknown): string[] {
  const result = validateRenderOutput({ element, state: {} });
  return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
}
const block = (...children: unknown[]) => ({ type: 'block', children });
const field = (element: unknown) => block({ type: 'input', label: 'L', element });

describe('block controls', () => {
  it('accepts a button or its attributes without `type`', () => {
    const controls = [
      { label: 'Edit', icon: 'edit', onPress: { action: '@ui.modal.open', componentId: 'settings' } },
      { type: 'button', icon: 'eye', tooltip: 'Show', onPress: { action: 'show' } },
    ];
    expect(problems({ type: 'block', controls, children: [] })).toEqual([]);
  });

  it('explains a control without label or icon, with a bad action or an unknown key', () => {
    const controls = [
      { onPress: { action: 'a' } },
      { label: 'Open', onPress: { action: '@ui.url.open', url: 'javascript:x' } },
      { label: 'Go', onPress: { action: 'go' }, colour: 'red' },
    ];
    expect(problems({ type: 'block', controls, children: [] })).toEqual([
      'element.controls[0]: a button needs a `label` or an `icon`',
      'element.controls[1].onPress.url: @ui.url.open needs an http(s) `url`',
      'element.controls[2]: Unrecognized key: "colour"',
    ]);
  });
});

describe('form controls', () => {
  const onValueChange = { action: 'changed', value: { $state: 'v' } };
  it('accept `disabled` and `onValueChange` (select, switch, checkbox, radio; `disabled` on textinput)', () => {
    for (const element of [
      { type: 'select', state: 'v', options: [], disabled: true, onValueChange },
      { type: 'switch', state: 'v', disabled: false, onValueChange },
      { type: 'checkbox', state: 'v', disabled: true, onValueChange },
      { type: 'radio', state: 'v', value: 'a', disabled: true, onValueChange },
      { type: 'textinput', state: 'v', disabled: true },
    ]) {
      expect(problems(field(element)), element.type).toEqual([]);
    }
  });

  it('explain a non-boolean `disabled` and an `onValueChange` that is not an action', () => {
    expect(problems(field({ type: 'switch', state: 'v', disabled: 'yes', onValueChange: 'go' }))).toEqual([
      'element.children[0].element.disabled: Invalid input: expected boolean, received string',
      'element.children[0].element.onValueChange: expected an action ({ "action": "name", ...payload })',
    ]);
  });
});

describe('select', () => {
  it('accepts `acceptInput` and options from a URL given in parts, query values bound to state', () => {
    const parts = {
      host: 'integrations.example.com:8443',
      pathname: '/v1/x/branches',
      query: { p: { $state: 'p' }, v: 2 },
    };
    expect(
      problems(field({ type: 'select', state: 'b', acceptInput: true, options: { url: parts } })),
    ).toEqual([]);
    expect(
      problems(field({ type: 'select', state: 'b', options: { url: 'https://example.com/o' } })),
    ).toEqual([]);
  });

  it('explains a host with a scheme and a path without its leading slash', () => {
    const url = { host: 'https://example.com', pathname: 'branches' };
    expect(problems(field({ type: 'select', state: 'b', options: { url } }))).toEqual([
      'element.children[0].element.options.url.host: expected a host name, with an optional :port (no scheme, path or credentials)',
      'element.children[0].element.options.url.pathname: expected a path starting with `/`',
    ]);
  });
});
