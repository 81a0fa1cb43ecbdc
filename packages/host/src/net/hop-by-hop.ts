/**
 * Header fields that describe one connection (one hop), not the message, so a forwarder never
 * passes them on (RFC 9110, section 7.6.1): `Connection` itself, every field that `Connection`
 * names, and the fields known to need removal whether named or not. One list for every place the
 * host forwards a request or a response (the executors and the integrations' outbound gate).
 */
export const HOP_BY_HOP_HEADERS: readonly string[] = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'transfer-encoding',
  'upgrade',
];

/**
 * Fields a forwarder that buffers the body and opens its own connection writes itself: the
 * target's `host`, the body's `content-length`, and no announced `trailer` (a buffered body has
 * none). Dropped from forwarded requests together with {@link HOP_BY_HOP_HEADERS}.
 */
export const FRAMING_HEADERS: readonly string[] = ['host', 'content-length', 'trailer'];

/**
 * The hop-by-hop field names of one message, lowercase: {@link HOP_BY_HOP_HEADERS} plus the
 * connection options its `Connection` field lists.
 *
 * @example
 * hopByHopNames(new Headers({ connection: 'close, X-Trace' })); // Set { 'connection', ..., 'close', 'x-trace' }
 */
export function hopByHopNames(headers: Headers): Set<string> {
  const names = new Set(HOP_BY_HOP_HEADERS);
  for (const option of (headers.get('connection') ?? '').split(',')) {
    const name = option.trim().toLowerCase();
    if (name !== '') names.add(name);
  }
  return names;
}

/**
 * A copy of a request's headers fit to forward on a new connection: without hop-by-hop fields
 * ({@link hopByHopNames}), without {@link FRAMING_HEADERS}, and without any `drop` names (lowercase).
 *
 * @example
 * forwardableRequestHeaders(new Headers({ connection: 'x-a', 'x-a': '1', accept: '*\/*' })); // Headers { accept: '*\/*' }
 */
export function forwardableRequestHeaders(headers: Headers, drop: readonly string[] = []): Headers {
  const skip = hopByHopNames(headers);
  for (const name of FRAMING_HEADERS) skip.add(name);
  for (const name of drop) skip.add(name.toLowerCase());
  const out = new Headers();
  for (const [name, value] of headers) if (!skip.has(name)) out.append(name, value);
  return out;
}
