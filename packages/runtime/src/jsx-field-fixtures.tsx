import type { ContentKitElement, ContentKitInputField } from '@platform/api-client';

/** A configuration screen in JSX: labelled `input` fields in a `configuration` root (jsx-field.test.ts). */
export function configurationScreen(): ContentKitElement {
  return (
    <configuration>
      <input
        label="API key"
        hint={
          <text>
            Found in <link target={{ url: 'https://example.com/settings' }}>settings</link>
          </text>
        }
        element={<textinput state="api_key" placeholder="key" />}
      />
      <input label="Enabled" hint="Turns syncing on" element={<switch state="enabled" />} />
      <input label="" hint="" element={<button label="Save" onPress={{ action: 'save.config' }} />} />
      <input id="legacy" label="Legacy" />
    </configuration>
  );
}

/** The `@ts-expect-error` lines are the type test (checked by tsc). */
export function fieldTypeErrors(): unknown[] {
  const notAFormElement: ContentKitInputField = {
    type: 'input',
    label: 'x',
    // @ts-expect-error: built as an object, `element` is a form element (not `text`)
    element: { type: 'text', text: 'x' },
  };
  return [
    notAFormElement,
    // @ts-expect-error: a field needs its `label`
    <input element={<textinput state="s" />} />,
    // @ts-expect-error: the text input form has no `hint`
    <input id="x" hint="h" />,
    // @ts-expect-error: a field has no `id` (its control binds a state key)
    <input id="x" label="x" element={<textinput state="s" />} />,
    // @ts-expect-error: `configuration` takes no attributes
    <configuration title="x" />,
  ];
}

/**
 * A block written the way ported integrations write it (jsx-field.test.ts): toolbar controls
 * without `type`, `onValueChange`, `acceptInput`, options from a URL in parts, `disabled`.
 */
export function integrationForms(endpoint: URL): ContentKitElement {
  return (
    <block
      controls={[
        { label: 'Edit', icon: 'edit', onPress: { action: '@ui.modal.open', componentId: 'settings' } },
      ]}
    >
      <input
        label="Branch"
        element={
          <select
            acceptInput
            state="branch"
            disabled={false}
            onValueChange={{ action: 'select.branch', branch: { $state: 'branch' } }}
            options={{
              url: {
                host: endpoint.host,
                pathname: `${endpoint.pathname}/branches`,
                query: { p: { $state: 'project' } },
              },
            }}
          />
        }
      />
      <input
        label="Custom template"
        element={
          <switch
            state="custom"
            disabled
            onValueChange={{ action: 'toggle.custom', custom: { $state: 'custom' } }}
          />
        }
      />
      <textinput state="token" disabled />
    </block>
  );
}
