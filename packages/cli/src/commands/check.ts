import { join, relative, resolve } from 'node:path';
import { formatIssues, type Issue, MANIFEST_FILE } from '@platform/manifest';
import type { Command } from 'commander';
import { createColors } from 'picocolors';
import { preloadMiniflare } from '../check/boot.js';
import { type CheckReport, type CheckStep, runCheck } from '../check/run-check.js';
import { scriptCheckStep } from '../check/script-step.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../errors.js';
import { useColor } from '../io.js';
import { withProgress } from '../progress.js';

/**
 * Extra steps of `platform check` after the manifest is valid: bundle the `script`, verify the
 * module and boot it in workerd with a minimal envelope (skipped with `--manifest-only`).
 */
export const CHECK_STEPS: CheckStep[] = [scriptCheckStep];

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function jsonIssue(issue: Issue) {
  return { path: issue.path, line: issue.line, column: issue.column, message: issue.message };
}

/** Renders a report as compiler-style lines and a summary. */
export function renderReport(report: CheckReport, fileName: string, color: boolean): string {
  const c = createColors(color);
  const lines: string[] = [];
  const issues = [...report.errors, ...report.warnings];
  if (issues.length > 0) lines.push(formatIssues(issues, fileName, { color }));
  const warnings = report.warnings.length > 0 ? `, ${plural(report.warnings.length, 'warning')}` : '';
  if (report.ok)
    lines.push(
      c.green(`✔ ${fileName} is valid${warnings ? ` (${plural(report.warnings.length, 'warning')})` : ''}`),
    );
  else lines.push(c.red(`✖ ${plural(report.errors.length, 'error')}${warnings}`));
  return `${lines.join('\n')}\n`;
}

/**
 * Registers `platform check [dir]`.
 *
 * @example
 * ```ts
 * registerCheck(program, { io: processIo(), exitCode: 0 }); // platform check examples/manifests/valid
 * ```
 */
export function registerCheck(program: Command, context: CommandContext): void {
  const { io } = context;
  program
    .command('check')
    .description(
      `validate ${MANIFEST_FILE} in a folder, then bundle the script and boot it in workerd (errors with line and column)`,
    )
    .argument('[dir]', 'folder that contains the manifest', '.')
    .option('--json', 'print {"ok", "errors", "warnings"} as JSON instead of text')
    .option('--first-party', 'allow internal scopes (only for integrations bundled with the platform)')
    .option('--manifest-only', 'validate the manifest only (do not bundle and boot the script)')
    .option('--env <name>', 'also check the manifest as published with --env <name> (envs.<name> applied)')
    .addHelpText(
      'after',
      `
Exit codes: 0 valid (warnings allowed), 1 invalid, 2 usage error (bad flag, missing folder or file).

Examples:
  $ platform check
  $ platform check integrations/slack
  $ platform check examples/manifests/invalid --json
  $ platform check integrations/webhook --first-party
  $ platform check --manifest-only
  $ platform check --env staging`,
    )
    .action(
      async (
        dir: string,
        options: { json?: boolean; firstParty?: boolean; manifestOnly?: boolean; env?: string },
      ) => {
        const folder = resolve(io.cwd, dir);
        if (!options.manifestOnly) preloadMiniflare().catch(() => undefined);
        const fileName = relative(io.cwd, join(folder, MANIFEST_FILE)) || MANIFEST_FILE;
        const report = await withProgress(
          io,
          options.manifestOnly
            ? 'Checking the manifest'
            : 'Checking the manifest, bundling and booting in workerd',
          () =>
            runCheck(folder, {
              firstParty: options.firstParty === true,
              ...(options.env === undefined ? {} : { env: options.env }),
              steps: options.manifestOnly ? [] : CHECK_STEPS,
            }),
          undefined,
          { ttyOnly: true },
        );
        if (options.json) {
          const out = {
            ok: report.ok,
            errors: report.errors.map(jsonIssue),
            warnings: report.warnings.map(jsonIssue),
          };
          io.stdout(`${JSON.stringify(out, null, 2)}\n`);
        } else {
          io.stdout(renderReport(report, fileName, useColor(io.env, io.stdoutIsTTY)));
        }
        if (!report.ok) context.exitCode = EXIT.invalid;
      },
    );
}
