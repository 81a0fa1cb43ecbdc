/** Where a command writes, and what it knows about its terminal. Tests pass their own. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stdout / stderr are terminals. */
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Whether stdin is a terminal (prompts are shown only then). Default false. */
  stdinIsTTY?: boolean;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/**
 * The process's own streams.
 *
 * @example
 * ```ts
 * const io = processIo();
 * io.stdout('hello\n');
 * ```
 */
export function processIo(): Io {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    stdinIsTTY: process.stdin.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
  };
}

/**
 * Whether to color output for a stream: `NO_COLOR` (non-empty) disables, `FORCE_COLOR` (not `0`)
 * enables, otherwise only on a terminal that is not `TERM=dumb`.
 *
 * @example
 * ```ts
 * useColor(io.env, io.stdoutIsTTY); // false when piped
 * ```
 */
export function useColor(env: Io['env'], isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY && env.TERM !== 'dumb';
}
