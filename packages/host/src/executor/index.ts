export { type Deadline, type DeadlineCause, raceSignal, resolveTimeout, startDeadline } from './deadline.js';
export { deploymentKey } from './deployment-registry.js';
export { ExecutorError, type ExecutorErrorCode } from './errors.js';
export {
  type FetchModule,
  type InProcessContext,
  InProcessExecutor,
  type InProcessExecutorOptions,
  type ModuleSource,
} from './in-process-executor.js';
export { RemoteHttpExecutor, type RemoteHttpExecutorOptions } from './remote-http-executor.js';
// The executor's contract (types.ts) is exported whole.
export * from './types.js';
export { WorkerdExecutor, type WorkerdExecutorOptions } from './workerd-executor.js';
export type { OutboundCaller, OutboundFetch } from './workerd-instance.js';
