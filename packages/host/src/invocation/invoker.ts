import { type Deployment, type Executor, ExecutorError } from '../executor/index.js';
import type { InstallationRecord, IntegrationRecord, LogLine } from '../storage/index.js';
import { buildEnvelope } from './envelope.js';
import { buildEnvironment } from './environment.js';
import type { InvocationHost } from './port.js';
import { mapStackLines, shortenRepeatedTraces } from './source-map.js';

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

/**
 * Parses the `X-Platform-Logs` header; malformed content becomes one warning line, never an exception.
 * Keeps at most `maxBytes` of message text (UTF-8); the lines after are dropped and counted in a last
 * warning line, so one invocation's logs stay bounded (`PLATFORM_INVOCATION_MAX_LOG_BYTES`).
 *
 * @example
 * const lines = parseLogs(response.headers.get(LOGS_HEADER), 16_384);
 */
export function parseLogs(header: string | null, maxBytes = Number.POSITIVE_INFINITY): LogLine[] {
  if (!header) return [];
  let lines: LogLine[];
  try {
    const text = new TextDecoder().decode(
      Uint8Array.from(atob(header.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)),
    );
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) throw new Error('not an array');
    lines = parsed.slice(0, 100).map((line: unknown) => {
      const l = (line ?? {}) as Record<string, unknown>;
      const level = ['debug', 'info', 'warn', 'error'].includes(String(l.level))
        ? (l.level as LogLine['level'])
        : 'info';
      return { level, message: String(l.message ?? '').slice(0, 8192), time: Number(l.time) || Date.now() };
    });
  } catch {
    return [{ level: 'warn', message: 'the integration returned unreadable logs', time: Date.now() }];
  }
  let used = 0;
  const kept: LogLine[] = [];
  for (const line of lines) {
    const size = Buffer.byteLength(line.message);
    if (used + size > maxBytes) {
      const dropped = lines.length - kept.length;
      kept.push({
        level: 'warn',
        message: `${dropped} log line${dropped === 1 ? '' : 's'} dropped: over the limit of ${maxBytes} bytes of logs per invocation (PLATFORM_INVOCATION_MAX_LOG_BYTES)`,
        time: Date.now(),
      });
      break;
    }
    used += size;
    kept.push(line);
  }
  return kept;
}

/** The error of a limit an invocation hit, naming the installation besides the integration. */
function withInstallation(error: ExecutorError, installationId: string): ExecutorError {
  if (error.code !== 'response_too_large') return error;
  return new ExecutorError(
    error.code,
    `${error.message}; installation ${installationId}`,
    error.deploymentId,
    error.detail,
  );
}

/** The log line of a failed invocation: code, message and, for the author, the error's detail. */
function describeFailure(error: ExecutorError): string {
  const detail = error.detail ? ` (${error.detail})` : '';
  return `${error.code}: ${error.message}${detail}`;
}

/** A queued invocation's attempt number, and the line saying what happens next (retry, give up). */
export interface InvocationRetry {
  attempt: number;
  /**
   * The invocation's span (tracing on): its `traceparent` goes into the envelope, its ids into the log
   * lines of the integration.
   */
  trace?: { traceparent: string; log: { trace_id?: string; span_id?: string } };
  /** Decides after the outcome; returns a line such as "retrying in 2 s", or undefined (success). */
  decide(outcome: InvocationOutcome): string | undefined;
}

/**
 * Writes the integration's log lines to the host log, each naming its installation, integration and event,
 * at the integration's level, but `error` as `warn`: the integration's trouble, not the host's (and
 * `platform dev`, whose host logs errors only, shows these lines its own way).
 */
function logLines(
  ctx: InvocationHost,
  integration: IntegrationRecord,
  installation: InstallationRecord,
  event: { type: string; eventId?: string },
  lines: readonly LogLine[],
  trace: { trace_id?: string; span_id?: string } | undefined,
): void {
  for (const line of lines) {
    ctx.logger[line.level === 'error' ? 'warn' : line.level](
      {
        source: 'integration',
        installation: installation.id,
        integration: integration.name,
        event: event.type,
        ...(typeof event.eventId === 'string' ? { eventId: event.eventId } : {}),
        ...trace,
      },
      `installation ${installation.id} (${integration.name}): ${line.message}`,
    );
  }
}

/**
 * Posts one event to an installation's integration through its executor, and records the
 * invocation (status, duration, log lines) for the operator.
 *
 * @example
 * const outcome = await invoke(ctx, executors, integration, installation, { type: 'space_view', eventId, spaceId });
 */
export async function invoke(
  ctx: InvocationHost,
  executors: ExecutorSelector,
  integration: IntegrationRecord,
  installation: InstallationRecord,
  event: { type: string; eventId?: string } & Record<string, unknown>,
  fetchBody?: Uint8Array,
  retry?: InvocationRetry,
): Promise<InvocationOutcome> {
  const request = await buildEnvelope({
    base: 'http://integration',
    version: integration.envelopeVersion,
    event,
    environment: buildEnvironment(ctx, integration, installation),
    signingSecret: integration.signingSecret,
    ...(fetchBody ? { fetchBody } : {}),
    ...(retry?.trace ? { traceparent: retry.trace.traceparent } : {}),
  });
  const started = performance.now();
  let outcome: InvocationOutcome;
  let lines: LogLine[] = [];
  try {
    const { response, durationMs } = await executors
      .executorFor(integration)
      .invoke(deploymentOf(integration), request, {
        timeoutMs: ctx.config.invocationTimeoutMs,
        maxResponseBytes: ctx.config.invocationLimits.responseBytes,
      });
    lines = parseLogs(response.headers.get(LOGS_HEADER), ctx.config.invocationLimits.logBytes);
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
        ? withInstallation(error, installation.id)
        : new ExecutorError('crashed', 'The integration could not be invoked.');
    if (!(error instanceof ExecutorError))
      ctx.logger.error(
        { err: error, integration: integration.name, installation: installation.id, ...retry?.trace?.log },
        `invoke failed (installation ${installation.id})`,
      );
    outcome = { ok: false, error: wrapped, durationMs: performance.now() - started };
  }
  ctx.metrics.invocation(outcome.ok ? 'ok' : outcome.error.code, outcome.durationMs);
  lines = mapStackLines(lines, integration.bundle, integration.bundleHash);
  if (retry && retry.attempt > 1) lines = shortenRepeatedTraces(lines);
  logLines(ctx, integration, installation, event, lines, retry?.trace?.log);
  const decision = retry?.decide(outcome);
  await ctx.storage.invocationLogs
    .insert({
      installationId: installation.id,
      integrationName: integration.name,
      eventType: event.type,
      eventId: typeof event.eventId === 'string' ? event.eventId : null,
      status: outcome.ok ? outcome.response.status : 'error',
      durationMs: Math.round(outcome.durationMs),
      lines: [
        ...lines,
        ...(outcome.ok
          ? []
          : [{ level: 'error' as const, message: describeFailure(outcome.error), time: Date.now() }]),
        ...(decision ? [{ level: 'warn' as const, message: decision, time: Date.now() }] : []),
      ],
    })
    .catch((err: unknown) => ctx.logger.error({ err }, 'could not record invocation log'));
  return outcome;
}
