import { manifestJsonSchema } from '@platform/manifest';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

/**
 * Registers `platform manifest schema`: prints the JSON Schema of platform-manifest.yaml.
 *
 * @example
 * ```ts
 * registerManifest(program, context); // platform manifest schema > manifest.schema.json
 * ```
 */
export function registerManifest(program: Command, context: CommandContext): void {
  const manifest = program
    .command('manifest')
    .description('tools for platform-manifest.yaml')
    .addHelpText(
      'after',
      `
Examples:
  $ platform manifest schema > platform-manifest.schema.json`,
    );
  manifest
    .command('schema')
    .description('print the JSON Schema of platform-manifest.yaml (for editors and yaml-language-server)')
    .addHelpText(
      'after',
      `
Examples:
  $ platform manifest schema > platform-manifest.schema.json
  # then, first line of platform-manifest.yaml:
  # yaml-language-server: $schema=./platform-manifest.schema.json`,
    )
    .action(() => {
      context.io.stdout(`${JSON.stringify(manifestJsonSchema(), null, 2)}\n`);
    });
}
