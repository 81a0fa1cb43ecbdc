import { expect } from 'vitest';
import { parseManifest } from './parse.js';

/** The six required keys on lines 1-6 (tests only); extra lines start at line 7. */
export const BASE = `name: demo
title: Demo
description: A demo integration
organization: acme
visibility: private
scopes: [space:content:read]
`;

/** The issues of the manifest {@link BASE} + `extra`: its errors, then its warnings. @example issuesOf('target: spaces\n'); */
export function issuesOf(extra: string) {
  const result = parseManifest(BASE + extra);
  return result.ok ? result.warnings : [...result.errors, ...result.warnings];
}

/**
 * Matches an issue having `fields`, its message matching the pattern `message` when one is given.
 * @example expect(issuesOf('target: spaces\n')).toEqual([issueLike({ path: 'target', line: 7, message: /did you mean/ })]);
 */
export function issueLike({
  message,
  ...fields
}: {
  path?: string;
  line?: number;
  column?: number;
  severity?: 'error' | 'warning';
  message?: RegExp;
}) {
  return expect.objectContaining({
    ...fields,
    ...(message ? { message: expect.stringMatching(message) } : {}),
  });
}
