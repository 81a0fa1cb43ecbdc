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
  ];
}

export function fragment(): ContentKitElement {
  return (
    <>
      <divider />
    </>
  );
}

export function textInBlock(): ContentKitElement {
  // @ts-expect-error: raw text must be wrapped in <text>
  return <block>hello</block>;
}
