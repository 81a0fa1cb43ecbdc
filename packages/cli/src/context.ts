import type { Io } from './io.js';

/** What every command receives: where to write, and the exit code to end with. */
export interface CommandContext {
  io: Io;
  /** Set by a command that finished but failed (e.g. `check` on an invalid manifest). */
  exitCode: number;
}
