import { describe, expect, it } from 'vitest';
import { formatIssues, formatPath, type Issue } from './issues.js';

const issues: Issue[] = [
  { path: 'scopes[0]', line: 6, column: 5, message: 'scope listed twice', severity: 'warning' },
  { path: 'name', line: 1, column: 7, message: 'bad name', severity: 'error' },
  { path: 'title', line: 2, column: 1, message: 'bad title', severity: 'error' },
];

describe('formatIssues', () => {
  it('prints compiler-style lines, errors first, by position', () => {
    expect(formatIssues(issues, 'platform-manifest.yaml')).toBe(
      [
        'platform-manifest.yaml:1:7 error: bad name',
        'platform-manifest.yaml:2:1 error: bad title',
        'platform-manifest.yaml:6:5 warning: scope listed twice',
      ].join('\n'),
    );
  });

  it('colors only when asked', () => {
    const colored = formatIssues(issues, 'm.yaml', { color: true });
    expect(colored).toContain('\u001b[31merror\u001b[39m');
    expect(colored).toContain('\u001b[33mwarning\u001b[39m');
    expect(formatIssues(issues, 'm.yaml')).not.toContain('\u001b[');
  });
});

describe('formatPath', () => {
  it('joins keys with dots and indexes with brackets', () => {
    expect(formatPath(['blocks', 0, 'id'])).toBe('blocks[0].id');
    expect(formatPath([])).toBe('');
  });
});
