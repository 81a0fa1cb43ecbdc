import type { ContentKitElement } from '@platform/api-client';

/** JSX samples used by jsx.test.ts; the `@ts-expect-error` lines are the type test (checked by tsc). */
export function counterView(count: number): ContentKitElement {
  return (
    <block>
      <hstack align="center">
        <text style="bold">Count: {count}</text>
        <button label="+1" onPress={{ action: 'increment', by: 1 }} style="primary" />
      </hstack>
      {count > 2 && <divider />}
      {[1, 2].map((n) => (
        <text>{n}</text>
      ))}
      <input id="name" label="Name" placeholder="Ada" />
    </block>
  );
}

function Greeting(props: { name: string }): ContentKitElement {
  return <text>Hello {props.name}</text>;
}

export function withComponent(): ContentKitElement {
  return (
    <vstack>
      <Greeting name="Ada" />
    </vstack>
  );
}

export function typeErrors(): ContentKitElement[] {
  return [
    // @ts-expect-error: `lable` is not a button attribute
    <button lable="x" onPress={{ action: 'a' }} />,
    // @ts-expect-error: onPress needs `action`
    <button label="x" onPress={{ name: 'a' }} />,
    // @ts-expect-error: `label` must be a string
    <button label={3} onPress={{ action: 'a' }} />,
    // @ts-expect-error: unknown element
    <blink />,
    // @ts-expect-error: divider takes no attributes
    <divider color="red" />,
    // @ts-expect-error: text style is an enum
    <text style="huge">x</text>,
    // @ts-expect-error: a card's icon is an icon name
    <card icon="rocket-ship" />,
    // @ts-expect-error: select options are [{ id, label }] or { url }
    <select state="s" options={[{ value: 'a' }]} />,
    // @ts-expect-error: a textinput binds a state key, it has no `id`
    <textinput id="x" state="s" />,
    // @ts-expect-error: a radio needs its `value`
    <radio state="size" />,
    // @ts-expect-error: codeblock content is a string or a state binding
    <codeblock content={42} />,
    // @ts-expect-error: webframe source is { url }
    <webframe source="https://example.com" />,
    // @ts-expect-error: an image takes no children
    <image source={{ url: 'https://example.com/a.png' }}>caption</image>,
    // @ts-expect-error: button confirm needs title, text and confirm
    <button label="Delete" onPress={{ action: 'delete' }} confirm={{ title: 'Sure?' }} />,
  ];
}

/** Every element of docs/contentkit.md written in JSX (the JSON is asserted in jsx.test.ts). */
export function everyElement(): ContentKitElement {
  return (
    <block controls={[{ type: 'button', icon: 'edit', tooltip: 'Edit', onPress: { action: 'edit' } }]}>
      <card
        title="PR #12"
        hint="open"
        icon="github"
        onPress={{ action: '@ui.url.open', url: 'https://example.com/pr/12' }}
      >
        <box grow={1}>
          <text>
            See <link target={{ url: 'https://example.com' }}>the docs</link> and{' '}
            <text style="bold">read</text>
          </text>
        </box>
      </card>
      <hint style="warning">Careful</hint>
      <markdown content="**bold**" />
      <textinput state="title" label="Title" placeholder="Untitled" />
      <select state="branch" options={[{ id: 'main', label: 'main' }]} />
      <select state="repo" options={{ url: 'https://example.com/repos' }} />
      <switch state="on" label="Enabled" initialValue />
      <checkbox state="agree" label="I agree" />
      <radio state="size" value="large" label="Large" />
      <button
        label="Delete"
        style="danger"
        onPress={{ action: 'delete' }}
        confirm={{ title: 'Delete?', text: 'This cannot be undone.', confirm: 'Delete' }}
      />
      <image source={{ url: 'https://example.com/a.png' }} alt="A" aspectRatio={1.5} />
      <codeblock content={{ $state: 'code' }} state="code" syntax="mermaid" />
      <webframe source={{ url: 'https://example.com/frame' }} data={{ code: { $state: 'code' } }} />
    </block>
  );
}

export function fragment(): ContentKitElement {
  return (
    <>
      <divider />
    </>
  );
}

/** A section written as a fragment, used inside a block with nested fragments and conditionals. */
export function fragmentsInBlock(showHint: boolean): ContentKitElement {
  const section = (
    <>
      <text>URL</text>
      <>
        <divider />
        {showHint ? <hint>optional</hint> : null}
      </>
    </>
  );
  return (
    <block>
      {section}
      <text>end</text>
    </block>
  );
}

export function textInBlock(): ContentKitElement {
  // @ts-expect-error: raw text must be wrapped in <text>
  return <block>hello</block>;
}
