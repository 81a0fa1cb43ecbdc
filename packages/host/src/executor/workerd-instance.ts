import { LogLevel, type Request as MfRequest, Response as MfResponse, Miniflare } from 'miniflare';
import { Client, Pool } from 'undici';
import type { DeploymentSource } from './deployment-registry.js';
import { truncate } from './errors.js';
import { forwardableHeaders, type RawHeaders } from './http.js';
import {
  DEPLOYMENT_HEADER,
  loaderWorkerSource,
  OUTBOUND_REFUSED_HEADER,
  PING_PATH,
} from './loader-source.js';
import type { ExecutorLogger } from './types.js';
import { HostLog, pipeRuntimeStdio } from './workerd-logging.js';

/** Which deployment an outbound request comes from, when the gate knows it. */
export interface OutboundCaller {
  /** The deployment's id (`name@version#hash`), or its workerd key when the id is no longer known. */
  readonly deploymentId?: string;
  readonly deploymentKey: string;
}

/** The host's gate for outbound requests of integration code (applies the address policy). */
export type OutboundFetch = (request: Request, caller?: OutboundCaller) => Promise<Response>;

/** How to start one workerd process. */
export interface WorkerdInstanceConfig {
  readonly compatibilityDate: string;
  readonly compatibilityFlags: readonly string[];
  readonly logger: ExecutorLogger;
  readonly source: (key: string) => DeploymentSource | undefined;
  readonly outbound: OutboundFetch | undefined;
  /**
   * Counts one outbound request of deployment `key`: null when it may go, else why not (the
   * integration's `fetch` then throws that message). Absent: no count.
   */
  readonly subrequest?: (key: string) => string | null;
}

/** A response body that went over the byte limit of {@link WorkerdInstance.send}. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`response body over ${limit} bytes`);
  }
}

/** A raw answer of the loader worker. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: RawHeaders;
  readonly body: Uint8Array<ArrayBuffer>;
}

const LOADER_NAME = 'executor-loader';
const LOADER_COMPATIBILITY_DATE = '2025-09-01';
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/** Why an instance was retired. */
export type RetireReason = 'restarted' | 'closed';

/**
 * One workerd process (through Miniflare) hosting the loader worker, and the HTTP clients that
 * talk to it. Used by `WorkerdExecutor`; replaced as a whole when it hangs.
 *
 * @example
 * const instance = await WorkerdInstance.start(config);
 * const answer = await instance.send({ key, method: 'POST', path: '/v1', headers, body, signal });
 * await instance.retire('closed');
 */
export class WorkerdInstance {
  readonly #lifetime = new AbortController();
  #retired: RetireReason | undefined;

  private constructor(
    private readonly mf: Miniflare,
    private readonly pool: Pool,
    private readonly pingClient: Client,
  ) {}

  /** Starts workerd and waits until it listens. */
  static async start(config: WorkerdInstanceConfig): Promise<WorkerdInstance> {
    const mf = new Miniflare({
      name: LOADER_NAME,
      modules: true,
      script: loaderWorkerSource({
        compatibilityDate: config.compatibilityDate,
        compatibilityFlags: [...config.compatibilityFlags],
      }),
      compatibilityDate: LOADER_COMPATIBILITY_DATE,
      // ctx.exports: each deployment's outbound gate carries its key (to count its subrequests)
      compatibilityFlags: ['enable_ctx_exports'],
      host: '127.0.0.1',
      port: 0,
      cf: false, // never download Request.cf data
      logRequests: false,
      log: new HostLog(config.logger, LogLevel.WARN),
      handleRuntimeStdio: pipeRuntimeStdio(config.logger),
      workerLoaders: { LOADER: {} },
      serviceBindings: {
        SOURCE: (request: MfRequest) => serveSource(request, config.source),
        ...(config.outbound === undefined
          ? {}
          : {
              OUTBOUND: gateFunction(config.outbound, config.logger, config.subrequest),
            }),
      },
    });
    let url: URL;
    try {
      url = await mf.ready;
    } catch (error) {
      await mf.dispose().catch(() => {});
      throw error;
    }
    return new WorkerdInstance(mf, new Pool(url.origin), new Client(url.origin));
  }

  /** Why it was retired, once it was. */
  get retired(): RetireReason | undefined {
    return this.#retired;
  }

  /**
   * Posts one request for the deployment `key`; the body is read fully before resolving, and no more
   * than `maxBodyBytes` of it (rejects with {@link BodyTooLargeError}, the rest left unread).
   */
  async send(call: {
    key: string;
    method: string;
    path: string;
    headers: Record<string, string>;
    body: Uint8Array | undefined;
    signal: AbortSignal;
    maxBodyBytes: number;
  }): Promise<RawAnswer> {
    const signal = AbortSignal.any([call.signal, this.#lifetime.signal]);
    const response = await this.pool.request({
      method: call.method as 'POST',
      path: call.path,
      headers: { ...call.headers, [DEPLOYMENT_HEADER]: call.key },
      body: call.body,
      signal,
    });
    const declared = Number(response.headers['content-length'] ?? Number.NaN);
    if (declared > call.maxBodyBytes) {
      response.body.destroy();
      throw new BodyTooLargeError(call.maxBodyBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > call.maxBodyBytes) {
        response.body.destroy();
        throw new BodyTooLargeError(call.maxBodyBytes);
      }
      chunks.push(chunk);
    }
    const joined = Buffer.concat(chunks, size);
    const body = new Uint8Array(
      joined.buffer,
      joined.byteOffset,
      joined.byteLength,
    ) as Uint8Array<ArrayBuffer>;
    return { status: response.statusCode, headers: response.headers, body };
  }

  /** True when the loader answers its probe within `timeoutMs` (on a fresh connection). */
  async ping(timeoutMs: number): Promise<boolean> {
    try {
      const response = await this.pingClient.request({
        method: 'GET',
        path: PING_PATH,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body.text();
      return response.statusCode === 200;
    } catch {
      return false;
    }
  }

  /** Fails every call in flight, then stops workerd. Idempotent. */
  async retire(reason: RetireReason): Promise<void> {
    if (this.#retired !== undefined) return;
    this.#retired = reason;
    this.#lifetime.abort(new Error(`workerd ${reason}`));
    await Promise.allSettled([this.pool.destroy(), this.pingClient.destroy(), this.mf.dispose()]);
  }
}

/** The `SOURCE` service: hands the loader the script and vars of a deployment key. */
function serveSource(request: MfRequest, source: (key: string) => DeploymentSource | undefined): MfResponse {
  const key = request.headers.get(DEPLOYMENT_HEADER);
  const found = key === null ? undefined : source(key);
  if (found === undefined) return new MfResponse('unknown deployment', { status: 404 });
  return new MfResponse(JSON.stringify(found), { headers: { 'content-type': 'application/json' } });
}

/** The `OUTBOUND` service: every outbound request of integration code goes through `outbound`. */
function gateFunction(
  outbound: OutboundFetch,
  logger: ExecutorLogger,
  subrequest: ((key: string) => string | null) | undefined,
): (request: MfRequest) => Promise<MfResponse> {
  return async (incoming) => {
    const url = incoming.url;
    const key = incoming.headers.get(DEPLOYMENT_HEADER);
    const over = key === null || subrequest === undefined ? null : subrequest(key);
    if (over !== null) {
      logger.warn({ source: 'outbound-gate', deploymentKey: key, origin: safeOrigin(url) }, over);
      return new MfResponse(over, { status: 429, headers: { [OUTBOUND_REFUSED_HEADER]: '1' } });
    }
    const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
    const headers = new Headers();
    for (const [name, value] of incoming.headers) headers.append(name, value);
    let response: Response;
    try {
      const request = new Request(url, {
        method: incoming.method,
        headers: forwardableHeaders(headers, [DEPLOYMENT_HEADER]),
        body: hasBody ? new Uint8Array(await incoming.arrayBuffer()) : undefined,
        redirect: 'manual', // workerd follows redirects itself, each hop through this gate again
      });
      response = await outbound(request, key === null ? undefined : { deploymentKey: key });
    } catch (error) {
      const origin = safeOrigin(url);
      const reason = truncate(error instanceof Error ? error.message : String(error), 300);
      logger.warn({ source: 'outbound-gate', origin, reason }, 'outbound request refused');
      return new MfResponse(`outbound request to ${origin} refused: ${reason}`, {
        status: 502,
        headers: { [OUTBOUND_REFUSED_HEADER]: '1' },
      });
    }
    const out = new Headers(response.headers);
    // fetch() already decoded the body: its encoding headers no longer describe it.
    out.delete('content-encoding');
    out.delete('content-length');
    const body = NULL_BODY_STATUS.has(response.status) ? null : new Uint8Array(await response.arrayBuffer());
    return new MfResponse(body, { status: response.status, headers: [...out] });
  };
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}
