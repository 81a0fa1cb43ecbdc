import type { Dispatcher } from 'undici';

/** Input of {@link postExchange}: one POST and how long it may take. */
export interface ExchangeInput {
  url: URL;
  headers: Record<string, string>;
  body: Buffer;
  dispatcher: Dispatcher;
  /** Deadline of the whole exchange (waiting for a socket, connect, headers, body excerpt), ms. */
  timeoutMs: number;
  /** At most this many bytes of the response body are kept; past them the exchange stops reading. */
  excerptBytes: number;
}

/** The receiver's answer: its status and the first bytes of its body. */
export interface ExchangeAnswer {
  statusCode: number;
  /** At most `excerptBytes` bytes (fewer when the body was shorter, failed or stalled). */
  excerpt: Buffer;
  /** The `Retry-After` header of a 429 or 503 answer (other statuses: not read). */
  retryAfter?: string;
}

/** The exchange's own deadline passed before the receiver's status arrived. */
export class ExchangeTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'ExchangeTimeout';
  }
}

/** The first value of header `name` (lower case) in undici's raw name/value list. */
function headerValue(rawHeaders: Buffer[] | string[] | null | undefined, name: string): string | undefined {
  if (!rawHeaders) return undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (String(rawHeaders[i]).toLowerCase() === name) return String(rawHeaders[i + 1]);
  }
  return undefined;
}

/** Ends a request whose excerpt is complete (the rest of the body is not read). */
class ExcerptComplete extends Error {}

/**
 * One POST on an undici dispatcher, driven by a handler of its own rather than `undici.request`: no
 * response stream, no AbortSignal, no async iterator, one timer. The delivery thread makes one of these
 * per attempt, so this is the hot path of a delivery.
 *
 * Resolves once the status and the body excerpt are in: when the body ends, when `excerptBytes` have
 * arrived (the connection is then closed), or, with the status already in, when the body fails or the
 * deadline passes (what arrived is kept). Rejects with the network error, or {@link ExchangeTimeout}
 * when the deadline passes before the status. Redirects are not followed.
 *
 * @example
 * const { statusCode, excerpt } = await postExchange({
 *   url: new URL('https://hooks.example.com/in'), headers: { 'content-type': 'application/json' },
 *   body: Buffer.from('{}'), dispatcher, timeoutMs: 10_000, excerptBytes: 4096,
 * });
 */
export function postExchange(input: ExchangeInput): Promise<ExchangeAnswer> {
  return new Promise((resolve, reject) => {
    let statusCode = 0;
    let retryAfter: string | undefined;
    let size = 0;
    const chunks: Buffer[] = [];
    let abort: ((reason: Error) => void) | undefined;
    let settled = false;
    /** Why the request must be aborted once it has a socket (it was settled before it got one). */
    let pendingAbort: Error | undefined;

    const answer = (): ExchangeAnswer => ({
      statusCode,
      excerpt: Buffer.concat(chunks, size).subarray(0, input.excerptBytes),
      ...(retryAfter === undefined ? {} : { retryAfter }),
    });
    const settle = (outcome: { answer: ExchangeAnswer } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if ('answer' in outcome) resolve(outcome.answer);
      else reject(outcome.error);
    };
    /** Settles first, then stops the request (its onError then finds the exchange settled). */
    const stop = (reason: Error, outcome: { answer: ExchangeAnswer } | { error: unknown }) => {
      settle(outcome);
      if (abort) abort(reason);
      else pendingAbort = reason;
    };

    const timer = setTimeout(() => {
      const timeout = new ExchangeTimeout(input.timeoutMs);
      stop(timeout, statusCode ? { answer: answer() } : { error: timeout });
    }, input.timeoutMs);

    const handler: Dispatcher.DispatchHandler = {
      onConnect(abortRequest) {
        abort = abortRequest;
        if (pendingAbort) abortRequest(pendingAbort);
      },
      onHeaders(status, rawHeaders) {
        if (status >= 200) statusCode = status; // 1xx are informational: the final status follows
        if (status === 429 || status === 503) retryAfter = headerValue(rawHeaders, 'retry-after');
        return true;
      },
      onData(chunk) {
        if (settled) return false;
        chunks.push(chunk);
        size += chunk.byteLength;
        if (size >= input.excerptBytes) {
          stop(new ExcerptComplete(), { answer: answer() });
          return false;
        }
        return true;
      },
      onComplete() {
        settle({ answer: answer() });
      },
      onError(error) {
        settle(statusCode ? { answer: answer() } : { error });
      },
    };

    try {
      input.dispatcher.dispatch(
        {
          origin: input.url.origin,
          path: `${input.url.pathname}${input.url.search}`,
          method: 'POST',
          headers: input.headers,
          body: input.body,
        },
        handler,
      );
    } catch (error) {
      settle({ error });
    }
  });
}
