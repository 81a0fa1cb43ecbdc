/*
 * ContentKit icons: a value (`ContentKitIcon.Maximize`, as integrations write it) and the type of
 * its names. Plain data, no zod: safe for integration bundles. The schema (./schema.ts) validates
 * icon names against ICONS.
 */

/**
 * Icon names by their enum-style key.
 *
 * @example
 * <button icon={ContentKitIcon.Maximize} tooltip="Open preview" onPress={{ action: 'open' }} />
 */
export const ContentKitIcon = {
  Add: 'add',
  Ai: 'ai',
  Alert: 'alert',
  Check: 'check',
  ChevronDown: 'chevron-down',
  ChevronRight: 'chevron-right',
  Clock: 'clock',
  Close: 'close',
  Code: 'code',
  Copy: 'copy',
  Delete: 'delete',
  Document: 'document',
  Download: 'download',
  Edit: 'edit',
  Email: 'email',
  External: 'external',
  Eye: 'eye',
  EyeOff: 'eye-off',
  Filter: 'filter',
  Gear: 'gear',
  Github: 'github',
  Gitlab: 'gitlab',
  Globe: 'globe',
  Image: 'image',
  Info: 'info',
  Link: 'link',
  LinkExternal: 'link-external',
  Lock: 'lock',
  Maximize: 'maximize',
  Minimize: 'minimize',
  Play: 'play',
  Plus: 'plus',
  Refresh: 'refresh',
  Search: 'search',
  Settings: 'settings',
  Share: 'share',
  Star: 'star',
  Upload: 'upload',
  User: 'user',
  Warning: 'warning',
} as const;

/** An icon name. @example const i: ContentKitIcon = 'github'; */
export type ContentKitIcon = (typeof ContentKitIcon)[keyof typeof ContentKitIcon];

/** Every icon name. @example ICONS.includes('maximize'); // true */
export const ICONS = Object.values(ContentKitIcon) as [ContentKitIcon, ...ContentKitIcon[]];
