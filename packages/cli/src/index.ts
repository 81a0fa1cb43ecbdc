export { type BuiltIntegration, buildIntegration, readValidManifest } from './build/build-integration.js';
export { referencedEnvNames, secretEnv } from './build/secrets-env.js';
export {
  type BundleProblem,
  blockProblems,
  eventProblems,
  exportProblems,
  inspectBundle,
} from './build/verify.js';
export { type BundleOptions, type BundleResult, bundleIntegration, defaultEntry } from './bundle.js';
export { bootBundle, sampleUrl } from './check/boot.js';
export { type CheckContext, type CheckReport, type CheckStep, runCheck } from './check/run-check.js';
export { scriptCheckStep } from './check/script-step.js';
export { CHECK_STEPS, renderReport } from './commands/check.js';
export type { CommandContext } from './context.js';
export { BundleError, CliError, EXIT, HostError } from './errors.js';
export { type HostClient, hostClient } from './host/client.js';
export { configPath, readLogin, writeLogin } from './host/config-file.js';
export { type HostTarget, resolveTarget } from './host/target.js';
export { type Io, processIo, useColor } from './io.js';
export { createProgram, runCli } from './program.js';
export { sampleEvent, TRIGGER_EVENT_TYPES, type TriggerEventType } from './samples.js';
