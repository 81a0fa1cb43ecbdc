import type { ContentKitElement } from '@platform/api-client';
import { type FunctionComponent, jsx } from './jsx-runtime';

export type { JSX } from './jsx-runtime';
export { Fragment } from './jsx-runtime';

/**
 * Development JSX factory (same output as `jsx`; source positions are ignored).
 * @example jsxDEV('divider', {}); // { type: 'divider' }
 */
export function jsxDEV(
  type: Parameters<typeof jsx>[0] | FunctionComponent<never>,
  props: Record<string, unknown>,
): ContentKitElement {
  return jsx(type, props);
}
