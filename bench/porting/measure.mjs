// `npm run measure:porting -- <corpus folder>`: how many integrations written for the platform this
// project models pass `platform check` after a mechanical rename only (docs/porting-measurement.md).
//
// The corpus folder holds one folder per integration, each a copy of that integration's folder as
// published (`gitbook-manifest.yaml`, `package.json`, `src/`...), and optionally a `.fetch.json`
// ({ binarySkipped: [paths] }) listing binary files that could not be copied. The corpus is third-party
// code: it is never part of this repository; this script copies it to `.tmp/porting/` (ignored by git).
//
// For each integration:
//   1. the rename, and nothing else: `gitbook-manifest.yaml` -> `platform-manifest.yaml`; the module
//      specifiers '@gitbook/runtime' -> '@platform/runtime' and '@gitbook/api' -> '@platform/api-client'
//      in every source file;
//   2. what a clone would have and the copy lacks: a placeholder (a 1x1 PNG, or an empty SVG) for each
//      binary file listed in `.fetch.json` and for each image the manifest names (`icon`,
//      `previewImages`) that is missing (binary files cannot be copied into the corpus), and the npm dependencies of its package.json (other than the
//      platform's own `@gitbook/*` packages), installed once for the whole corpus from the registry;
//   3. `platform check --json` (with `--first-party` when the manifest requests an internal scope).
// Nothing special-cases an integration by name. Prints a table and writes
// bench/results/porting-<date>.json.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INTERNAL_SCOPES } from '@platform/manifest';
import { parse as parseYaml } from 'yaml';
import { runStage } from './run-stage.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WORK = join(ROOT, '.tmp', 'porting');
const CLI = join(ROOT, 'packages/cli/dist/bin.js');
const SOURCE = /\.(m?[jt]sx?|json)$/;
// Old scope names count as internal too when the platform's internal scope carries the new name.
const INTERNAL = (scope) =>
  INTERNAL_SCOPES.includes(scope) ||
  INTERNAL_SCOPES.includes(scope.replace(/^space:script:/, 'site:script:'));
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=',
  'base64',
);

const EMPTY_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>\n';

/** The images a manifest names (`icon`, `previewImages`), as written. */
function manifestImages(dir) {
  try {
    const manifest = parseYaml(readFileSync(join(dir, 'platform-manifest.yaml'), 'utf8'));
    const paths = [manifest?.icon, ...(Array.isArray(manifest?.previewImages) ? manifest.previewImages : [])];
    return paths.filter((p) => typeof p === 'string' && /\.(png|jpe?g|gif|webp|svg)$/i.test(p));
  } catch {
    return [];
  }
}

/** The rename of step 1, on one source text. */
export function renameSpecifiers(text) {
  return text
    .replace(/(['"])@gitbook\/runtime(['"/])/g, '$1@platform/runtime$2')
    .replace(/(['"])@gitbook\/api(['"/])/g, '$1@platform/api-client$2');
}

function walk(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

function prepare(corpus, name) {
  const dir = join(WORK, name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(corpus, name), dir, { recursive: true });
  const legacy = join(dir, 'gitbook-manifest.yaml');
  if (existsSync(legacy)) {
    writeFileSync(join(dir, 'platform-manifest.yaml'), readFileSync(legacy));
    rmSync(legacy);
  }
  for (const file of walk(dir)) {
    if (SOURCE.test(file)) writeFileSync(file, renameSpecifiers(readFileSync(file, 'utf8')));
  }
  const fetchInfo = join(dir, '.fetch.json');
  const skipped = existsSync(fetchInfo)
    ? (JSON.parse(readFileSync(fetchInfo, 'utf8')).binarySkipped ?? [])
    : [];
  let restored = 0;
  for (const path of [...skipped, ...manifestImages(dir)]) {
    const target = resolve(dir, path);
    // Only inside the folder: a path outside it is the manifest's own mistake, which check reports.
    if (!target.startsWith(`${dir}/`) || existsSync(target)) continue;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, target.endsWith('.svg') ? EMPTY_SVG : PNG_1X1);
    restored++;
  }
  return { dir, restored };
}

function dependenciesOf(dir) {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return {};
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  return Object.fromEntries(
    Object.entries({ ...pkg.dependencies }).filter(
      ([name, range]) =>
        !name.startsWith('@gitbook/') &&
        !name.startsWith('@platform/') &&
        !String(range).startsWith('workspace:'),
    ),
  );
}

function manifestScopes(dir) {
  try {
    const manifest = parseYaml(readFileSync(join(dir, 'platform-manifest.yaml'), 'utf8'));
    return Array.isArray(manifest?.scopes) ? manifest.scopes.map(String) : [];
  } catch {
    return [];
  }
}

function check(dir, firstParty) {
  const args = [CLI, 'check', dir, '--json', ...(firstParty ? ['--first-party'] : [])];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 });
  try {
    return JSON.parse(run.stdout);
  } catch {
    return {
      ok: false,
      errors: [{ message: `check printed no JSON (exit ${run.status}): ${run.stderr.slice(0, 300)}` }],
      warnings: [],
    };
  }
}

function firstLine(issue) {
  const text = typeof issue === 'string' ? issue : (issue.message ?? JSON.stringify(issue));
  return text.split('\n')[0].slice(0, 160);
}

async function main() {
  const corpus = process.argv[2];
  if (!corpus || !existsSync(corpus)) {
    console.error('usage: npm run measure:porting -- <corpus folder> (one folder per integration)');
    process.exit(2);
  }
  const names = readdirSync(corpus)
    .filter(
      (n) =>
        existsSync(join(corpus, n, 'gitbook-manifest.yaml')) ||
        existsSync(join(corpus, n, 'platform-manifest.yaml')),
    )
    .sort();
  mkdirSync(WORK, { recursive: true });
  const prepared = names.map((name) => ({ name, ...prepare(corpus, name) }));
  // One install for the corpus (their package.json files name the versions they were written against).
  const wanted = {};
  for (const p of prepared) Object.assign(wanted, dependenciesOf(p.dir));
  const specs = Object.entries(wanted).map(([name, range]) => `${name}@${range}`);
  let installError = null;
  if (specs.length > 0) {
    writeFileSync(join(WORK, 'package.json'), '{"private":true}\n');
    try {
      execFileSync(
        'npm',
        ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--legacy-peer-deps', ...specs],
        {
          cwd: WORK,
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
    } catch (error) {
      installError = String(error.stderr ?? error).slice(0, 500);
      console.error(
        `npm install of the corpus dependencies failed; continuing without them:\n${installError}`,
      );
    }
  }
  const rows = [];
  for (const p of prepared) {
    const firstParty = manifestScopes(p.dir).some(INTERNAL);
    const result = check(p.dir, firstParty);
    rows.push({
      name: p.name,
      ok: Boolean(result.ok),
      firstParty,
      restoredAssets: p.restored,
      errors: (result.errors ?? []).map(firstLine),
      warnings: (result.warnings ?? []).map(firstLine),
    });
    console.log(
      `${result.ok ? 'pass' : 'FAIL'}  ${p.name}${firstParty ? ' (--first-party)' : ''}${result.ok ? '' : `: ${rows.at(-1).errors[0] ?? ''}`}`,
    );
  }
  const passed = rows.filter((r) => r.ok).length;
  console.log(`\n${passed} of ${rows.length} pass platform check after the rename.`);
  // The run stage (bench/porting/run-stage.mjs): what passes check, on a real host; `--no-run` skips it.
  const run = process.argv.includes('--no-run') ? null : await runStageOf(rows, prepared);
  const date = new Date().toISOString();
  const out = join(ROOT, 'bench/results', `porting-${date.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}.json`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ date, passed, total: rows.length, dependencies: specs, installError, rows, run: run && { passed: run.passed, total: run.total, byCause: run.byCause } }, null, 2)}\n`,
  );
  console.log(`results written to ${out}`);
}

/** Runs the run stage over the rows that passed check; prints its table and figure. */
async function runStageOf(rows, prepared) {
  console.log('\nrun stage: published to a host, installed, sent its events, rendered, actions dispatched');
  const items = rows
    .filter((r) => r.ok)
    .map((r) => ({
      name: r.name,
      dir: prepared.find((p) => p.name === r.name).dir,
      firstParty: r.firstParty,
    }));
  const run = await runStage(ROOT, items);
  for (const row of run.rows) {
    const target = rows.find((r) => r.name === row.name);
    if (target) target.run = row;
  }
  console.log(
    `\n${run.passed} of ${run.total} that pass check also pass run (${rows.length} in the corpus).`,
  );
  for (const [cause, count] of Object.entries(run.byCause).sort((a, b) => b[1] - a[1])) {
    console.log(`  ${String(count).padStart(3)}  ${cause}`);
  }
  return run;
}

await main();
