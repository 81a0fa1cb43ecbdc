// The device bundle (bench/device/pack.sh) carries bench/delivery/*.mjs, bench/machine/wakeups.mjs and the
// npm packages of closure.mjs, nothing else: a benchmark file the device runs that imports anything more
// fails there in its first second, and a device is lent to few sessions, for minutes. This walks the static
// imports of what bench/device/run.sh starts (and the processes those start) and checks each one is carried.
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CARRIED_APART, LINKED_WORKSPACES, packedClosure } from './closure.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const delivery = join(root, 'bench', 'delivery');
/** What run.sh runs (scale-out.mjs, run.mjs) and the scripts they start as processes (relay, receiver). */
const ENTRIES = ['scale-out.mjs', 'run.mjs', 'relay.mjs', 'receiver.mjs'];
/** Static `import … from`, `export … from` and bare `import '…'` specifiers of a module's text (not `import()`). */
function staticImports(text) {
  const specifiers = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm))
    specifiers.push(m[1]);
  for (const m of text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) specifiers.push(m[1]);
  return specifiers;
}

const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Every module reachable by static imports from the entries: problems found, modules read. */
function walk(carried) {
  const problems = [];
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const from = relative(root, file);
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        if (dirname(target) !== delivery || !target.endsWith('.mjs'))
          problems.push(`${from} imports ${specifier}: pack.sh carries bench/delivery/*.mjs only`);
        else if (!existsSync(target)) problems.push(`${from} imports ${specifier}, which does not exist`);
        else visit(target);
      } else if (!isBuiltin(specifier) && !carried.has(packageOf(specifier))) {
        problems.push(`${from} imports ${specifier}: not in the device bundle (bench/device/closure.mjs)`);
      }
    }
  };
  for (const entry of ENTRIES) visit(join(delivery, entry));
  return { problems, modules: seen.size };
}

describe('bench/device: what the device runs imports only what pack.sh carries', () => {
  const carried = new Set([
    ...packedClosure(root),
    ...CARRIED_APART,
    ...LINKED_WORKSPACES.map((name) => `@platform/${name}`),
    '@platform/integration-webhook', // integrations/webhook, linked apart
  ]);

  it('every static import of scale-out.mjs, run.mjs and the processes they start is carried', () => {
    const { problems, modules } = walk(carried);
    expect(problems).toEqual([]);
    expect(modules).toBeGreaterThan(10); // the walk followed the imports
  });

  it('bench/machine/wakeups.mjs, carried alone, imports only Node.js built-ins', () => {
    const file = join(root, 'bench', 'machine', 'wakeups.mjs');
    const specifiers = staticImports(readFileSync(file, 'utf8'));
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((specifier) => !isBuiltin(specifier))).toEqual([]);
  });

  it('finds what is not carried (the check itself)', () => {
    expect(
      staticImports(
        "import { build } from 'esbuild';\nimport {\n  a,\n} from '../../scripts/x.mjs';\nimport 'side';\nconst m = await import('bullmq');",
      ),
    ).toEqual(['esbuild', '../../scripts/x.mjs', 'side']);
    expect(carried.has('esbuild')).toBe(false);
    expect(carried.has('bullmq')).toBe(false);
    expect(carried.has('undici') && carried.has('pg')).toBe(true);
  });
});
