import { validateRenderOutput } from '@platform/api-client/contentkit-schema';
import { describe, expect, it } from 'vitest';
import { ContentKit } from './contentkit';
import { configurationScreen, integrationForms } from './jsx-field-fixtures';
import { jsx } from './jsx-runtime';

describe('JSX: labelled input fields and the configuration root', () => {
  it('writes what ported integrations render (typeless controls, onValueChange, URL parts), valid for the host', () => {
    const block = integrationForms(new URL('http://127.0.0.1:8080/v1/integrations/x/public'));
    expect(block).toMatchObject({
      type: 'block',
      controls: [{ label: 'Edit', icon: 'edit' }],
      children: [
        {
          type: 'input',
          element: {
            type: 'select',
            acceptInput: true,
            options: { url: { host: '127.0.0.1:8080', pathname: '/v1/integrations/x/public/branches' } },
          },
        },
        { type: 'input', element: { type: 'switch', disabled: true } },
        { type: 'textinput', disabled: true },
      ],
    });
    expect(validateRenderOutput({ element: block, state: {} })).toMatchObject({ ok: true });
  });

  it('builds `<input label hint element>` fields in a `<configuration>` root, valid for the host', () => {
    const screen = configurationScreen();
    expect(screen).toEqual({
      type: 'configuration',
      children: [
        {
          type: 'input',
          label: 'API key',
          hint: {
            type: 'text',
            children: [
              'Found in ',
              { type: 'link', target: { url: 'https://example.com/settings' }, children: ['settings'] },
            ],
          },
          element: { type: 'textinput', state: 'api_key', placeholder: 'key' },
        },
        {
          type: 'input',
          label: 'Enabled',
          hint: 'Turns syncing on',
          element: { type: 'switch', state: 'enabled' },
        },
        {
          type: 'input',
          label: '',
          hint: '',
          element: { type: 'button', label: 'Save', onPress: { action: 'save.config' } },
        },
        { type: 'input', id: 'legacy', label: 'Legacy' },
      ],
    });
    expect(validateRenderOutput({ element: screen, state: {} })).toMatchObject({ ok: true });
  });

  it('builders produce the same JSON', () => {
    expect(
      ContentKit.configuration(
        ContentKit.input({
          label: 'Enabled',
          hint: 'Turns syncing on',
          element: ContentKit.switch({ state: 'enabled' }),
        }),
      ),
    ).toEqual({
      type: 'configuration',
      children: [(configurationScreen() as { children: unknown[] }).children[1]],
    });
  });

  it('a configuration root holds elements, never text', () => {
    expect(() => jsx('configuration', { children: 'hello' })).toThrow(/wrap text in <text>/);
  });
});
