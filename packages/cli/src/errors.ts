/** Exit codes of the `platform` command. */
export const EXIT = { ok: 0, invalid: 1, failure: 1, usage: 2 } as const;

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

/**
 * The integration could not be bundled or is not a valid integration module (exit 1).
 *
 * @example
 * ```ts
 * throw new BundleError('src/index.ts has no default export.');
 * ```
 */
export class BundleError extends CliError {
  constructor(message: string) {
    super('bundle_failed', message, EXIT.failure);
    this.name = 'BundleError';
  }
}

/**
 * The host refused a request, or could not be reached (exit 1). `status` is 0 when unreachable.
 *
 * @example
 * ```ts
 * throw new HostError(401, 'unauthorized', 'the host refused the token');
 * ```
 */
export class HostError extends CliError {
  constructor(
    readonly status: number,
    code: string,
    message: string,
  ) {
    super(code, message, EXIT.failure);
    this.name = 'HostError';
  }
}
