export { type CheckContext, type CheckReport, type CheckStep, runCheck } from './check/run-check.js';
export { CHECK_STEPS, renderReport } from './commands/check.js';
export type { CommandContext } from './context.js';
export { CliError, EXIT } from './errors.js';
export { type Io, processIo, useColor } from './io.js';
export { createProgram, runCli } from './program.js';
