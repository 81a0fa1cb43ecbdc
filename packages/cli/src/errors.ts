/** Exit codes of the `platform` command. */
export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;

/**
 * An error that ends the command with a message on stderr and a given exit code.
 *
 * @example
 * ```ts
 * throw new CliError('usage', `folder not found: ${dir}`, EXIT.usage);
 * ```
 */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
