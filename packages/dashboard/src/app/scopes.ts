import { currentScopeName, type Scope } from '@platform/api-client';

const WORDS: Record<Scope, string> = {
  'space:content:read': 'Read the content of spaces',
  'space:content:write': 'Change the content of spaces',
  'space:metadata:read': 'Read space settings (title, visibility)',
  'space:metadata:write': 'Change space settings',
  'space:git:sync': 'Sync spaces with a Git repository',
  'site:metadata:read': 'Read site settings',
  'site:views:read': 'See site page views and feedback, including visitor data',
  'site:script:inject': 'Add scripts to sites (internal)',
  'site:script:cookies': 'Use cookies on sites (internal)',
  'site:visitor:auth': 'Authenticate site visitors',
  'site:visitor:claims': 'Read claims of authenticated visitors',
  'site:adaptive:read': 'Read adaptive content settings',
  'site:adaptive:write': 'Change adaptive content settings',
  'openapi:read': 'Read OpenAPI specifications',
  'openapi:write': 'Publish OpenAPI specifications',
  'conversations:ingest': 'Send conversations to the platform',
};

/**
 * A scope (docs/contracts.md "Scopes") in plain words, an old name as its new one (`SCOPE_ALIASES`);
 * unknown scopes are shown as they are.
 * @example scopeInWords('space:content:read'); // 'Read the content of spaces'
 */
export function scopeInWords(scope: string): string {
  return (WORDS as Record<string, string>)[currentScopeName(scope)] ?? scope;
}

const VISIBILITY: Record<string, string> = {
  private: 'Private: only members of the owning organization can install it',
  unlisted: 'Unlisted: anyone with the install link can install it',
  public: 'Public: any organization can install it',
};

/**
 * A visibility value (docs/contracts.md "Manifest") in plain words.
 * @example visibilityInWords('public'); // 'Public: any organization can install it'
 */
export function visibilityInWords(visibility: string): string {
  return VISIBILITY[visibility] ?? visibility;
}
