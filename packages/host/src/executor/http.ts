import { forwardableRequestHeaders, hopByHopNames } from '../net/hop-by-hop.js';

/** Statuses whose responses cannot carry a body. */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * Copies `headers` without hop-by-hop and framing fields (`net/hop-by-hop.ts`) and any extra names
 * given (lowercase).
 *
 * @example
 * forwardableHeaders(request.headers); // { 'content-type': 'multipart/form-data; boundary=x', ... }
 */
export function forwardableHeaders(headers: Headers, drop: readonly string[] = []): Record<string, string> {
  return Object.fromEntries(forwardableRequestHeaders(headers, drop));
}

/**
 * The request body as bytes, or `undefined` for GET/HEAD or an absent body.
 *
 * @example
 * const body = await readRequestBody(request);
 */
export async function readRequestBody(request: Request): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (request.body === null || request.method === 'GET' || request.method === 'HEAD') {
    return undefined;
  }
  return new Uint8Array(await request.arrayBuffer());
}

/** A header list as undici's `request()` returns it. */
export type RawHeaders = Record<string, string | string[] | undefined>;

/**
 * Builds a standard `Response` from status, headers and buffered body bytes.
 * `dropEncoding` removes `content-encoding`/`content-length` (for bodies that `fetch` already decoded).
 *
 * @example
 * toResponse(200, { 'content-type': 'text/plain' }, new TextEncoder().encode('hi'));
 */
export function toResponse(
  status: number,
  headers: RawHeaders | Headers,
  body: Uint8Array<ArrayBuffer>,
  dropEncoding = false,
): Response {
  const out = new Headers();
  const entries: Iterable<[string, string | string[] | undefined]> =
    headers instanceof Headers ? headers : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) out.append(name, one);
  }
  for (const name of hopByHopNames(out)) out.delete(name);
  if (dropEncoding) {
    out.delete('content-encoding');
    out.delete('content-length');
  }
  const nullBody = NULL_BODY_STATUS.has(status);
  return new Response(nullBody ? null : body, { status, headers: out });
}
