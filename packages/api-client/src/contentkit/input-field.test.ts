import { describe, expect, it } from 'vitest';
import { DESCENDANT_SCHEMAS, FORM_ELEMENT_SCHEMAS } from './schema';
import { validateRenderOutput } from './validate';

function problems(element: unknown): string[] {
  const result = validateRenderOutput({ element, state: {} });
  return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
}
const screen = (...children: unknown[]) => ({ type: 'configuration', children });
const field = (element: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'input',
  label: 'L',
  element,
  ...extra,
});

describe('input as a labelled field, and the configuration root', () => {
  it('accepts every form element in a field, string or text hints, and the text input form', () => {
    const elements = [
      { type: 'textinput', state: 't' },
      { type: 'select', state: 's', options: [{ id: 'a', label: 'A' }] },
      { type: 'switch', state: 'w' },
      { type: 'checkbox', state: 'c' },
      { type: 'radio', state: 'r', value: 'a' },
      { type: 'button', label: 'Go', onPress: { action: 'go' } },
      { type: 'codeblock', content: 'https://example.com/webhook' },
    ];
    const hints = [
      'plain',
      { type: 'text', children: ['see ', { type: 'text', style: 'bold', text: 'this' }] },
    ];
    expect(problems(screen(...elements.map((e, i) => field(e, { hint: hints[i % 2] }))))).toEqual([]);
    expect(problems(screen(field(elements[5], { label: '', hint: '' })))).toEqual([]);
    expect(problems({ type: 'block', children: [{ type: 'input', id: 'note', label: 'Note' }] })).toEqual([]);
  });

  it('names what is wrong in a field', () => {
    expect(problems(screen(field({ type: 'text', text: 'x' })))).toEqual([
      `element.children[0].element.type: unknown element type "text" as an \`input\`'s \`element\`; expected one of ${Object.keys(FORM_ELEMENT_SCHEMAS).join(', ')}`,
    ]);
    expect(problems(screen(field({ type: 'textinput' })))).toEqual([
      'element.children[0].element.state: Invalid input: expected string, received undefined',
    ]);
    expect(problems(screen({ type: 'input', element: { type: 'switch', state: 's' } }))).toEqual([
      'element.children[0].label: Invalid input: expected string, received undefined',
    ]);
    expect(problems(screen(field({ type: 'switch', state: 's' }, { id: 'x' })))[0]).toMatch(
      /^element\.children\[0\]: Unrecognized key: "id"/,
    );
    // Without `element`, the text input form: its `id` is required.
    expect(problems(screen({ type: 'input', label: 'L' }))).toEqual([
      'element.children[0].id: Invalid input: expected string, received undefined',
    ]);
  });

  it('never offers a root inside a container or a field', () => {
    for (const root of ['block', 'modal', 'configuration']) {
      expect(DESCENDANT_SCHEMAS).not.toHaveProperty(root);
      expect(FORM_ELEMENT_SCHEMAS).not.toHaveProperty(root);
    }
  });

  it('takes `configuration` only at the root, in any render context', () => {
    expect(problems(screen({ type: 'text', text: 'a' }))).toEqual([]);
    expect(problems({ type: 'block', children: [screen()] })).toEqual([
      `element.children[0].type: unknown element type "configuration" inside a container; expected one of ${Object.keys(DESCENDANT_SCHEMAS).join(', ')}`,
    ]);
    expect(problems({ type: 'configuration', title: 'x', children: [] })[0]).toMatch(
      /Unrecognized key: "title"/,
    );
  });
});
