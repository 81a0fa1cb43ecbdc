import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers.js';

/** The first `npm ci` / `npm install` command of a markdown file's first sh block that has one. */
async function installCommand(file: string): Promise<string> {
  const text = await readFile(join(repoRoot, file), 'utf8');
  for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const line = block[1]?.split('\n').find((l) => /^npm (ci|install|i)\b/.test(l));
    if (line) return line.replace(/#.*/, '').trim();
  }
  throw new Error(`${file} shows no npm install command`);
}

// The README's quick start and the walkthrough give a newcomer the same install command.
describe('install command in the docs', () => {
  it('is the same in README.md and docs/first-integration.md, and says how long it takes', async () => {
    const readme = await installCommand('README.md');
    expect(await installCommand('docs/first-integration.md')).toBe(readme);
    expect(readme).toBe('npm ci --foreground-scripts');
    expect(await readFile(join(repoRoot, 'README.md'), 'utf8')).toMatch(/1 to 5 minutes/);
  });
});
