import type {
  ContentKitBlock,
  ContentKitBox,
  ContentKitButton,
  ContentKitCard,
  ContentKitCheckbox,
  ContentKitCodeBlock,
  ContentKitConfiguration,
  ContentKitDescendant,
  ContentKitDivider,
  ContentKitHint,
  ContentKitImage,
  ContentKitInline,
  ContentKitInput,
  ContentKitLink,
  ContentKitMarkdown,
  ContentKitModal,
  ContentKitRadio,
  ContentKitSelect,
  ContentKitStack,
  ContentKitSwitch,
  ContentKitText,
  ContentKitTextInput,
  ContentKitWebframe,
} from '@platform/api-client';

type Props<T extends { type: string }> = T extends unknown ? Omit<T, 'type'> : never;
type WithoutChildren<T extends { type: string }> = Omit<T, 'type' | 'children'>;

/**
 * Builders of ContentKit elements (the same JSON JSX produces), one per element of
 * docs/contentkit.md.
 *
 * @example
 * ContentKit.block(ContentKit.text('Hello', 'bold'), ContentKit.button({ label: 'Go', onPress: { action: 'go' } }));
 */
export const ContentKit = {
  block: (...children: ContentKitDescendant[]): ContentKitBlock => ({ type: 'block', children }),
  configuration: (...children: ContentKitDescendant[]): ContentKitConfiguration => ({
    type: 'configuration',
    children,
  }),
  modal: (props: WithoutChildren<ContentKitModal>, ...children: ContentKitDescendant[]): ContentKitModal => ({
    type: 'modal',
    ...props,
    children,
  }),
  box: (children: ContentKitDescendant[], options: WithoutChildren<ContentKitBox> = {}): ContentKitBox => ({
    type: 'box',
    ...options,
    children,
  }),
  vstack: (
    children: ContentKitDescendant[],
    options: WithoutChildren<ContentKitStack> = {},
  ): ContentKitStack => ({
    type: 'vstack',
    ...options,
    children,
  }),
  hstack: (
    children: ContentKitDescendant[],
    options: WithoutChildren<ContentKitStack> = {},
  ): ContentKitStack => ({
    type: 'hstack',
    ...options,
    children,
  }),
  card: (props: WithoutChildren<ContentKitCard>, ...children: ContentKitDescendant[]): ContentKitCard => ({
    type: 'card',
    ...props,
    children,
  }),
  divider: (props: Props<ContentKitDivider> = {}): ContentKitDivider => ({ type: 'divider', ...props }),
  text: (text: string | ContentKitInline[], style?: ContentKitText['style']): ContentKitText => ({
    type: 'text',
    ...(typeof text === 'string' ? { text } : { children: text }),
    ...(style ? { style } : {}),
  }),
  link: (url: string, text: string): ContentKitLink => ({ type: 'link', target: { url }, children: [text] }),
  markdown: (content: string): ContentKitMarkdown => ({ type: 'markdown', content }),
  hint: (children: ContentKitInline[], style?: ContentKitHint['style']): ContentKitHint => ({
    type: 'hint',
    children,
    ...(style ? { style } : {}),
  }),
  input: (props: Props<ContentKitInput>): ContentKitInput => ({ type: 'input', ...props }) as ContentKitInput,
  textinput: (props: Props<ContentKitTextInput>): ContentKitTextInput => ({ type: 'textinput', ...props }),
  select: (props: Props<ContentKitSelect>): ContentKitSelect => ({ type: 'select', ...props }),
  switch: (props: Props<ContentKitSwitch>): ContentKitSwitch => ({ type: 'switch', ...props }),
  checkbox: (props: Props<ContentKitCheckbox>): ContentKitCheckbox => ({ type: 'checkbox', ...props }),
  radio: (props: Props<ContentKitRadio>): ContentKitRadio => ({ type: 'radio', ...props }),
  button: (props: Props<ContentKitButton>): ContentKitButton => ({ type: 'button', ...props }),
  image: (props: Props<ContentKitImage>): ContentKitImage => ({ type: 'image', ...props }),
  codeblock: (props: Props<ContentKitCodeBlock>): ContentKitCodeBlock => ({ type: 'codeblock', ...props }),
  webframe: (props: Props<ContentKitWebframe>): ContentKitWebframe => ({ type: 'webframe', ...props }),
};
