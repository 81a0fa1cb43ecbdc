/** @jsxImportSource preact */
import type { ComponentAction, ContentKitElement, ContentKitModal } from '@platform/api-client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ContentKitView, handleBuiltin, type State } from '../contentkit';

const url = (path: string) => `${window.location.origin}${path}`;

/** Every ContentKit element and built-in action, as one block (docs/contentkit.md). */
export function galleryBlock(): ContentKitElement {
  return {
    type: 'block',
    controls: [{ type: 'button', icon: 'edit', tooltip: 'Edit block', onPress: { action: 'edit' } }],
    children: [
      { type: 'text', style: 'bold', text: 'Layout' },
      {
        type: 'hstack',
        align: 'center',
        children: [
          { type: 'box', grow: 1, children: [{ type: 'text', text: 'box in an hstack' }] },
          {
            type: 'vstack',
            gap: 'small',
            children: [
              { type: 'text', text: 'vstack 1' },
              { type: 'text', text: 'vstack 2' },
            ],
          },
        ],
      },
      { type: 'divider' },
      {
        type: 'card',
        title: 'Pull request #12',
        hint: 'open · 3 files',
        icon: 'github',
        onPress: { action: '@ui.url.open', url: 'https://example.com/pr/12' },
        buttons: [
          {
            type: 'button',
            icon: 'maximize',
            tooltip: 'Open preview',
            onPress: { action: '@ui.modal.open', componentId: 'preview', props: { pr: 12 } },
          },
        ],
        children: [{ type: 'markdown', content: 'A **card** body with `markdown`.' }],
      },
      { type: 'text', style: 'bold', text: 'Text' },
      {
        type: 'text',
        children: [
          'Plain, ',
          { type: 'text', style: 'italic', text: 'italic' },
          ', ',
          { type: 'text', style: 'code', text: 'code' },
          ', ',
          { type: 'text', style: 'strikethrough', text: 'struck' },
          ' and a ',
          { type: 'link', target: { url: 'https://example.com/docs' }, children: ['link'] },
          '.',
        ],
      },
      { type: 'hint', style: 'warning', children: ['A hint: short and contextual.'] },
      { type: 'text', style: 'bold', text: 'Inputs' },
      { type: 'textinput', state: 'title', label: 'Title', placeholder: 'Untitled' },
      {
        type: 'select',
        state: 'branch',
        label: 'Branch',
        options: [
          { id: 'main', label: 'main' },
          { id: 'next', label: 'next' },
        ],
      },
      { type: 'switch', state: 'sync', label: 'Sync on save', initialValue: true },
      { type: 'checkbox', state: 'agree', label: 'I agree' },
      { type: 'radio', state: 'size', value: 'small', label: 'Small', initialValue: 'small' },
      { type: 'radio', state: 'size', value: 'large', label: 'Large' },
      { type: 'input', id: 'note', label: 'Note (legacy input)' },
      {
        type: 'hstack',
        children: [
          {
            type: 'button',
            label: 'Save',
            style: 'primary',
            onPress: { action: 'save', title: { $state: 'title' } },
          },
          {
            type: 'button',
            label: 'Delete',
            style: 'danger',
            confirm: { title: 'Delete?', text: 'This cannot be undone.', confirm: 'Delete', style: 'danger' },
            onPress: { action: 'delete' },
          },
          {
            type: 'button',
            label: 'Open site',
            onPress: { action: '@ui.url.open', url: 'https://example.com' },
          },
          {
            type: 'button',
            label: 'Update props',
            onPress: { action: '@editor.node.updateProps', props: { code: { $state: 'code' } } },
          },
        ],
      },
      { type: 'text', style: 'bold', text: 'Media' },
      {
        type: 'image',
        source: { url: url('/gallery-image.svg') },
        alt: 'A sample image',
        aspectRatio: 320 / 120,
      },
      {
        type: 'codeblock',
        content: 'graph TD\n  A --> B',
        state: 'code',
        syntax: 'mermaid',
        onContentChange: { action: 'code-changed', code: { $state: 'code' } },
        footer: [
          {
            type: 'webframe',
            source: { url: url('/webframe-demo.html') },
            data: { code: { $state: 'code' } },
          },
        ],
      },
      { type: 'codeblock', content: 'const answer = 42;', syntax: 'ts' },
    ],
  };
}

/** A configuration screen: the `configuration` root and labelled `input` fields (docs/contentkit.md). */
export function galleryConfiguration(): ContentKitElement {
  return {
    type: 'configuration',
    children: [
      {
        type: 'input',
        label: 'API token',
        hint: {
          type: 'text',
          children: ['Found in ', { type: 'text', style: 'bold', text: 'Settings' }, '.'],
        },
        element: { type: 'textinput', state: 'token', placeholder: 'tok_…' },
      },
      {
        type: 'input',
        label: 'Notifications',
        hint: 'Post a message on each change.',
        element: { type: 'switch', state: 'notify' },
      },
      {
        type: 'input',
        label: 'Connection',
        hint: 'Applies the token and the notification choice.',
        element: {
          type: 'button',
          label: 'Apply settings',
          style: 'primary',
          onPress: { action: 'save.config', token: { $state: 'token' }, notify: { $state: 'notify' } },
        },
      },
    ],
  };
}

/**
 * What ported integrations render beyond the basics (docs/contentkit.md): a toolbar control written
 * without `type`, `onValueChange`, `acceptInput`, options from a URL given in parts, `disabled`.
 */
export function galleryIntegrationForms(): ContentKitElement {
  return {
    type: 'block',
    controls: [{ label: 'Edit settings', icon: 'settings', onPress: { action: 'open.settings' } }],
    children: [
      {
        type: 'input',
        label: 'Repository',
        hint: 'Pick one or type another name.',
        element: {
          type: 'select',
          state: 'repo',
          acceptInput: true,
          options: [
            { id: 'docs', label: 'docs' },
            { id: 'site', label: 'site' },
          ],
          onValueChange: { action: 'select.repo', repo: { $state: 'repo' } },
        },
      },
      {
        type: 'input',
        label: 'Upstream ref',
        element: {
          type: 'select',
          state: 'remoteBranch',
          options: {
            url: {
              host: window.location.host,
              pathname: '/gallery/branches',
              query: { repo: { $state: 'repo' } },
            },
          },
        },
      },
      {
        type: 'input',
        label: 'Mirror',
        element: {
          type: 'switch',
          state: 'mirror',
          onValueChange: { action: 'toggle.mirror', mirror: { $state: 'mirror' } },
        },
      },
      {
        type: 'input',
        label: 'Locked setting',
        element: {
          type: 'textinput',
          state: 'locked',
          initialValue: 'managed by the operator',
          disabled: true,
        },
      },
    ],
  };
}

const PREVIEW: ContentKitModal = {
  type: 'modal',
  title: 'Preview',
  subtitle: 'A modal opened with @ui.modal.open',
  children: [{ type: 'text', text: 'Escape or Close returns to the block.' }],
  submit: {
    type: 'button',
    label: 'Done',
    style: 'primary',
    onPress: { action: '@ui.modal.close', returnValue: { ok: true } },
  },
};

/**
 * The ContentKit gallery (`/gallery`): every element and built-in action drawn by the dashboard's
 * one renderer, with the actions it dispatches listed (no integration needed).
 */
export function GalleryPage() {
  const [state, setState] = useState<State>({});
  const [log, setLog] = useState<string[]>([]);
  const [modal, setModal] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const record = (line: string) => setLog((l) => [...l, line]);
  const onState = (key: string, value: unknown) => setState((s) => ({ ...s, [key]: value }));
  useEffect(() => {
    if (modal && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [modal]);
  const dispatch = (action: ComponentAction) => {
    const { inputs: _inputs, ...shown } = action;
    record(JSON.stringify(shown));
    handleBuiltin(action, {
      openModal: () => setModal(true),
      close: () => {
        dialog.current?.close();
        setModal(false);
      },
      props: (props) => record(`props saved: ${JSON.stringify(props)}`),
    });
  };
  return (
    <main id="main" class="page gallery">
      <h1>ContentKit gallery</h1>
      <p class="muted">
        Every element and built-in action, drawn by the renderer the editor and configuration screens use.
      </p>
      <ContentKitView element={galleryBlock()} state={state} onState={onState} onAction={dispatch} />
      <h2>Configuration screen</h2>
      <ContentKitView element={galleryConfiguration()} state={state} onState={onState} onAction={dispatch} />
      <h2>What ported integrations render</h2>
      <ContentKitView
        element={galleryIntegrationForms()}
        state={state}
        onState={onState}
        onAction={dispatch}
      />
      <h2>Dispatched actions</h2>
      <ol class="gallery-log" aria-label="Dispatched actions">
        {log.map((line, i) => (
          <li key={i}>
            <code>{line}</code>
          </li>
        ))}
      </ol>
      {modal ? (
        <dialog ref={dialog} class="ck-dialog" aria-label="Preview dialog" onClose={() => setModal(false)}>
          <ContentKitView element={PREVIEW} onAction={dispatch} />
        </dialog>
      ) : null}
    </main>
  );
}
