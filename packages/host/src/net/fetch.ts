import { type Dispatcher, fetch as undiciFetch } from 'undici';
import { createGuardedDispatcher, type GuardedDispatcherOptions } from './dispatcher.js';
import { TargetBlockedError } from './errors.js';
import { forwardableRequestHeaders } from './hop-by-hop.js';
import type { AddressPolicy } from './policy.js';

/** Options of {@link createGuardedFetch}. */
export interface GuardedFetchOptions extends GuardedDispatcherOptions {
  /** Reuse this dispatcher (it must already apply the policy) instead of creating one. */
  dispatcher?: Dispatcher;
}

/** Walks an error's `cause` chain for a {@link TargetBlockedError}. */
export function findTargetBlocked(error: unknown): TargetBlockedError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof TargetBlockedError) return current;
    current = current.cause;
  }
  return undefined;
}

/**
 * The integrations' outbound gate: performs `request` through a guarded dispatcher. Redirects
 * are never followed here (`redirect: 'manual'`): a 3xx goes back to the caller, whose next hop
 * comes through the gate again and is checked again. A refused target rejects with
 * {@link TargetBlockedError}; other network failures reject like `fetch` does.
 *
 * @example
 * const gate = createGuardedFetch(policy);
 * const response = await gate(new Request('https://api.example.com/v1/me'));
 */
export function createGuardedFetch(
  policy: AddressPolicy,
  options: GuardedFetchOptions = {},
): (request: Request) => Promise<Response> {
  const dispatcher = options.dispatcher ?? createGuardedDispatcher(policy, options);
  return async (request) => {
    const headers = forwardableRequestHeaders(request.headers);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
    const body = hasBody ? new Uint8Array(await request.arrayBuffer()) : undefined;
    let response: Awaited<ReturnType<typeof undiciFetch>>;
    try {
      response = await undiciFetch(request.url, {
        method: request.method,
        headers: [...headers],
        body,
        redirect: 'manual',
        signal: request.signal,
        dispatcher,
      });
    } catch (error) {
      throw findTargetBlocked(error) ?? error;
    }
    // Hand back a Response of the global fetch implementation (undici's own class differs).
    const nullBody = [101, 204, 205, 304].includes(response.status) || request.method === 'HEAD';
    return new Response(nullBody ? null : (response.body as ReadableStream<Uint8Array> | null), {
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers],
    });
  };
}
