import type {
  ContentKitBlock,
  ContentKitButton,
  ContentKitDivider,
  ContentKitElement,
  ContentKitInput,
  ContentKitStack,
  ContentKitText,
} from '@platform/api-client';

/**
 * Builders of ContentKit elements (the same JSON JSX produces).
 *
 * @example
 * ContentKit.block(ContentKit.text('Hello', 'bold'), ContentKit.button({ label: 'Go', onPress: { action: 'go' } }));
 */
export const ContentKit = {
  block: (...children: ContentKitElement[]): ContentKitBlock => ({ type: 'block', children }),
  vstack: (children: ContentKitElement[], options: Pick<ContentKitStack, 'align'> = {}): ContentKitStack => ({
    type: 'vstack',
    ...options,
    children,
  }),
  hstack: (children: ContentKitElement[], options: Pick<ContentKitStack, 'align'> = {}): ContentKitStack => ({
    type: 'hstack',
    ...options,
    children,
  }),
  text: (text: string, style?: ContentKitText['style']): ContentKitText =>
    style ? { type: 'text', text, style } : { type: 'text', text },
  button: (props: Omit<ContentKitButton, 'type'>): ContentKitButton => ({ type: 'button', ...props }),
  divider: (): ContentKitDivider => ({ type: 'divider' }),
  input: (props: Omit<ContentKitInput, 'type'>): ContentKitInput => ({ type: 'input', ...props }),
};
