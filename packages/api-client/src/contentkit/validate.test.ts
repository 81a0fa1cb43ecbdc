import { describe, expect, it } from 'vitest';
import { ContentKitIcon } from './icons';
import { BUILTIN_ACTIONS, ELEMENT_SCHEMAS, ELEMENTS } from './schema';
import { formatPath, validateRenderOutput } from './validate';

const output = (element: unknown, extra: Record<string, unknown> = {}) => ({ element, state: {}, ...extra });

function problems(value: unknown): string[] {
  const result = validateRenderOutput(value);
  return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
}

describe('validateRenderOutput', () => {
  it('accepts a valid tree with every container, cache and props', () => {
    const element = {
      type: 'block',
      children: [
        { type: 'vstack', gap: 'small', children: [{ type: 'text', text: 'a' }] },
        { type: 'card', title: 'T', children: [{ type: 'box', children: [{ type: 'divider' }] }] },
        { type: 'button', icon: 'close', onPress: { action: '@ui.modal.close' } },
        {
          type: 'codeblock',
          content: 'graph TD; A-->B',
          state: 'content',
          footer: [
            {
              type: 'webframe',
              source: { url: 'https://example.com/frame' },
              data: { c: { $state: 'content' } },
            },
          ],
        },
      ],
    };
    expect(validateRenderOutput(output(element, { props: { a: 1 }, cache: { maxAge: 60 } }))).toEqual({
      ok: true,
      output: output(element, { props: { a: 1 }, cache: { maxAge: 60 } }),
    });
    expect(problems(output({ type: 'modal', title: 'M', children: [] }))).toEqual([]);
  });

  it('names the element path of a bad attribute', () => {
    const element = {
      type: 'block',
      children: [
        { type: 'text', text: 'a' },
        { type: 'divider' },
        { type: 'button', label: 'Go', onPress: 'go' },
      ],
    };
    expect(problems(output(element))).toEqual([
      'element.children[2].onPress: expected an action ({ "action": "name", ...payload })',
    ]);
  });

  it('explains unknown elements, unknown attributes, bad built-in actions and misplaced roots', () => {
    const element = {
      type: 'block',
      children: [
        { type: 'blink' },
        { type: 'text', text: 'x', colour: 'red' },
        { type: 'button', label: 'Open', onPress: { action: '@ui.url.open', url: 'javascript:alert(1)' } },
        { type: 'button', label: 'x', onPress: { action: '@ui.explode' } },
        { type: 'block', children: [] },
        { type: 'select', state: 's', options: [{ value: 'a' }] },
      ],
    };
    const found = problems(output(element));
    expect(found[0]).toMatch(
      /^element\.children\[0\]\.type: unknown element type "blink" inside a container; expected one of box, /,
    );
    expect(found).toContain('element.children[1]: Unrecognized key: "colour"');
    expect(found).toContain('element.children[2].onPress.url: @ui.url.open needs an http(s) `url`');
    expect(
      found.some((p) =>
        p.startsWith('element.children[3].onPress.action: unknown built-in action @ui.explode'),
      ),
    ).toBe(true);
    expect(
      found.some((p) =>
        p.startsWith('element.children[4].type: unknown element type "block" inside a container'),
      ),
    ).toBe(true);
    expect(found.some((p) => p.startsWith('element.children[5].options'))).toBe(true);
  });

  it('accepts the card icons integrations write: a name, `{ url }` and an `image`; explains a missing URL', () => {
    const card = (icon: unknown) =>
      output({ type: 'block', children: [{ type: 'card', icon, children: [] }] });
    const image = (source: unknown) => ({ type: 'image', source, aspectRatio: 1 });
    expect(problems(card(ContentKitIcon.EyeOff))).toEqual([]);
    expect(problems(card({ url: 'https://host.example/v1/assets/abc' }))).toEqual([]);
    expect(problems(card(image({ url: 'https://host.example/v1/assets/abc' })))).toEqual([]);
    const why =
      'expected an icon name (docs/contentkit.md "Icons"), `{ url }` of an http(s) image, or an `image` element whose `source.url` is an http(s) URL';
    // `environment.integration.urls.icon` read where it is not set: `source: {}` once serialized.
    expect(problems(card(image({})))).toEqual([`element.children[0].icon: ${why}`]);
    expect(problems(card('not-an-icon'))).toEqual([`element.children[0].icon: ${why}`]);
    expect(
      problems(
        output({ type: 'block', children: [{ type: 'button', icon: 'eye-off', onPress: { action: 'a' } }] }),
      ),
    ).toEqual([]);
  });

  it('requires the state object and a JSON-object element', () => {
    expect(problems({ element: 'hi' })).toEqual([
      'element: expected a ContentKit element ({ "type": ... })',
      'state: Invalid input: expected record, received undefined',
    ]);
  });

  it('validates exactly the declared elements, roots first, and the built-in actions the docs promise', () => {
    const declared = ELEMENTS.filter((e) => e.place !== 'inline').map((e) => e.type);
    expect(Object.keys(ELEMENT_SCHEMAS)).toEqual(declared);
    expect(declared.slice(0, 3)).toEqual(ELEMENTS.filter((e) => e.place === 'root').map((e) => e.type));
    expect(Object.keys(BUILTIN_ACTIONS)).toEqual([
      '@ui.url.open',
      '@ui.modal.open',
      '@ui.modal.close',
      '@editor.node.updateProps',
      '@webframe.ready',
      '@webframe.resize',
      '@link.unfurl',
    ]);
  });
});

describe('formatPath', () => {
  it('joins keys with dots and indexes with brackets', () => {
    expect(formatPath(['element', 'children', 2, 'onPress'])).toBe('element.children[2].onPress');
    expect(formatPath([])).toBe('(root)');
  });
});
