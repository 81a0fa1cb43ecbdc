import { type Deployment, type Executor, ExecutorError } from '../executor/index.js';
import type { InstallationRecord, IntegrationRecord, LogLine } from '../storage/index.js';
import type { HostContext } from './context.js';
import { buildEnvelope } from './envelope.js';
import { buildEnvironment } from './environment.js';

/** Header the runtime returns its buffered log lines in (docs/contracts.md). */
export const LOGS_HEADER = 'x-platform-logs';

/** Picks the executor of an integration: first-party modules in-process, everything else in workerd. */
export interface ExecutorSelector {
  executorFor(integration: IntegrationRecord): Executor;
}

/** The outcome of one invocation: the integration's response (logs header removed) or an executor error. */
export type InvocationOutcome =
  | { ok: true; response: Response; durationMs: number }
  | { ok: false; error: ExecutorError; durationMs: number };

/** The deployment id of an integration version: changes whenever its bundle does. */
export function deploymentOf(integration: IntegrationRecord): Deployment {
  return {
    id: `${integration.name}@${integration.version}#${integration.bundleHash.slice(0, 16)}`,
    script: integration.bundle,
  };
}

/** Parses the `X-Platform-Logs` header; malformed content becomes one warning line, never an exception. */
export function parseLogs(header: string | null): LogLine[] {
  if (!header) return [];
  try {
    const text = new TextDecoder().decode(
      Uint8Array.from(atob(header.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)),
    );
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) throw new Error('not an array');
    return parsed.slice(0, 100).map((line: unknown) => {
      const l = (line ?? {}) as Record<string, unknown>;
      const level = ['debug', 'info', 'warn', 'error'].includes(String(l.level))
        ? (l.level as LogLine['level'])
        : 'info';
      return { level, message: String(l.message ?? '').slice(0, 8192), time: Number(l.time) || Date.now() };
    });
  } catch {
    return [{ level: 'warn', message: 'the integration returned unreadable logs', time: Date.now() }];
  }
}

/** The log line of a failed invocation: code, message and, for the author, the error's detail. */
function describeFailure(error: ExecutorError): string {
  const detail = error.detail ? ` (${error.detail})` : '';
  return `${error.code}: ${error.message}${detail}`;
}

/**
 * Posts one event to an installation's integration through its executor, and records the
 * invocation (status, duration, log lines) for the operator.
 *
 * @example
 * const outcome = await invoke(ctx, executors, integration, installation, { type: 'space_view', eventId, spaceId });
 */
export async function invoke(
  ctx: HostContext,
  executors: ExecutorSelector,
  integration: IntegrationRecord,
  installation: InstallationRecord,
  event: { type: string; eventId?: string } & Record<string, unknown>,
  fetchBody?: Uint8Array,
): Promise<InvocationOutcome> {
  const request = await buildEnvelope({
    base: 'http://integration',
    version: integration.envelopeVersion,
    event,
    environment: buildEnvironment(ctx, integration, installation),
    signingSecret: integration.signingSecret,
    ...(fetchBody ? { fetchBody } : {}),
  });
  const started = performance.now();
  let outcome: InvocationOutcome;
  let lines: LogLine[] = [];
  try {
    const { response, durationMs } = await executors
      .executorFor(integration)
      .invoke(deploymentOf(integration), request, { timeoutMs: ctx.config.invocationTimeoutMs });
    lines = parseLogs(response.headers.get(LOGS_HEADER));
    const headers = new Headers(response.headers);
    headers.delete(LOGS_HEADER);
    const clean = new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
    outcome = { ok: true, response: clean, durationMs };
  } catch (error) {
    const wrapped =
      error instanceof ExecutorError
        ? error
        : new ExecutorError('crashed', 'The integration could not be invoked.');
    if (!(error instanceof ExecutorError))
      ctx.logger.error({ err: error, integration: integration.name }, 'invoke failed');
    outcome = { ok: false, error: wrapped, durationMs: performance.now() - started };
  }
  ctx.metrics.invocation(outcome.ok ? 'ok' : outcome.error.code, outcome.durationMs);
  await ctx.storage.invocationLogs
    .insert({
      installationId: installation.id,
      integrationName: integration.name,
      eventType: event.type,
      eventId: typeof event.eventId === 'string' ? event.eventId : null,
      status: outcome.ok ? outcome.response.status : 'error',
      durationMs: Math.round(outcome.durationMs),
      lines: outcome.ok
        ? lines
        : [...lines, { level: 'error', message: describeFailure(outcome.error), time: Date.now() }],
    })
    .catch((err: unknown) => ctx.logger.error({ err }, 'could not record invocation log'));
  return outcome;
}
