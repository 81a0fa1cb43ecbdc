import { CONTENTKIT_JSX } from '@platform/api-client';
import { validateRenderOutput } from '@platform/api-client/contentkit-schema';
import { describe, expect, it } from 'vitest';
import { ContentKit } from './contentkit';
import {
  counterView,
  everyElement,
  fragment,
  fragmentsInBlock,
  textInBlock,
  withComponent,
} from './jsx-fixtures';
import { jsx } from './jsx-runtime';

describe('JSX runtime', () => {
  it('turns JSX into ContentKit JSON', () => {
    expect(counterView(3)).toEqual({
      type: 'block',
      children: [
        {
          type: 'hstack',
          align: 'center',
          children: [
            { type: 'text', style: 'bold', text: 'Count: 3' },
            { type: 'button', label: '+1', onPress: { action: 'increment', by: 1 }, style: 'primary' },
          ],
        },
        { type: 'divider' },
        { type: 'text', text: '1' },
        { type: 'text', text: '2' },
        { type: 'input', id: 'name', label: 'Name', placeholder: 'Ada' },
      ],
    });
  });

  it('drops false children and calls function components', () => {
    expect(counterView(0).type).toBe('block');
    expect((counterView(0) as { children: unknown[] }).children).toHaveLength(4);
    expect(withComponent()).toEqual({ type: 'vstack', children: [{ type: 'text', text: 'Hello Ada' }] });
  });

  it('builds every declared element by its kind, and refuses a tag no element declares', () => {
    for (const [name, kind] of Object.entries(CONTENTKIT_JSX)) {
      const children = { container: [{ type: 'divider' }], inline: ['x'], leaf: undefined }[kind];
      const built = jsx(name as keyof typeof CONTENTKIT_JSX, { children });
      expect(built.type).toBe(name);
      if (kind === 'container') expect(() => jsx(name as 'block', { children: 'raw' })).toThrow(/wrap text/);
      if (kind === 'container') expect(built).toMatchObject({ children: [{ type: 'divider' }] });
      if (kind === 'inline') expect(JSON.stringify(built)).toContain('"x"');
      if (kind === 'leaf') expect(built).toEqual({ type: name });
    }
    expect(() => jsx('blink' as 'block', {})).toThrow('<blink> is not a ContentKit element');
  });

  it('puts the children of a fragment in its place inside a container; alone, a fragment is a vstack', () => {
    const block = fragmentsInBlock(true) as { children: Array<{ type: string }> };
    expect(block.children.map((c) => c.type)).toEqual(['text', 'divider', 'hint', 'text']);
    expect(
      (fragmentsInBlock(false) as { children: Array<{ type: string }> }).children.map((c) => c.type),
    ).toEqual(['text', 'divider', 'text']);
    expect(validateRenderOutput({ element: fragmentsInBlock(true), state: {} })).toMatchObject({ ok: true });
    // at a render's root there is no container to take the children: a vstack of them
    expect(fragment()).toEqual({ type: 'vstack', children: [{ type: 'divider' }] });
  });

  it('refuses raw text in containers with a clear error', () => {
    expect(() => textInBlock()).toThrow(/wrap text in <text>/);
  });

  it('writes text with inline links and styled spans, and every other element', () => {
    const block = everyElement() as { type: string; children: Array<Record<string, unknown>> };
    expect(block.children.map((c) => c.type)).toEqual([
      'card',
      'hint',
      'markdown',
      'textinput',
      'select',
      'select',
      'switch',
      'checkbox',
      'radio',
      'button',
      'image',
      'codeblock',
      'webframe',
    ]);
    expect(block.children[0]).toEqual({
      type: 'card',
      title: 'PR #12',
      hint: 'open',
      icon: 'github',
      onPress: { action: '@ui.url.open', url: 'https://example.com/pr/12' },
      children: [
        {
          type: 'box',
          grow: 1,
          children: [
            {
              type: 'text',
              children: [
                'See ',
                { type: 'link', target: { url: 'https://example.com' }, children: ['the docs'] },
                ' and ',
                { type: 'text', style: 'bold', text: 'read' },
              ],
            },
          ],
        },
      ],
    });
    expect(block.children[1]).toEqual({ type: 'hint', style: 'warning', children: ['Careful'] });
    expect(block.children[6]).toEqual({ type: 'switch', state: 'on', label: 'Enabled', initialValue: true });
    expect(validateRenderOutput({ element: block, state: {} })).toMatchObject({ ok: true });
  });

  it('builders produce the same JSON as JSX', () => {
    expect(
      ContentKit.block(
        ContentKit.hstack(
          [
            ContentKit.text('Count: 3', 'bold'),
            ContentKit.button({ label: '+1', onPress: { action: 'increment', by: 1 }, style: 'primary' }),
          ],
          { align: 'center' },
        ),
        ContentKit.divider(),
        ContentKit.text('1'),
        ContentKit.text('2'),
        ContentKit.input({ id: 'name', label: 'Name', placeholder: 'Ada' }),
      ),
    ).toEqual(counterView(3));
  });
});
