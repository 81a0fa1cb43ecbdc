import { FRAMING_HEADERS, HOP_BY_HOP_HEADERS } from '../../net/index.js';

/** At most this many custom headers per endpoint. */
export const MAX_CUSTOM_HEADERS = 20;
/** At most this many characters in a custom header's name, and in its value. */
export const MAX_HEADER_NAME_LENGTH = 256;
export const MAX_HEADER_VALUE_LENGTH = 4096;

/** An HTTP field name: an RFC 7230 (RFC 9110 section 5.1) `token`. */
export const HEADER_NAME_PATTERN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Header names a webhook endpoint's custom headers may not set (lowercase): hop-by-hop and framing fields
 * (the host's HTTP client writes them), the signature headers of every scheme (`X-Platform-Signature` and
 * Standard Webhooks' `webhook-id`, `webhook-timestamp`, `webhook-signature`), and the body's own
 * `Content-Type`/`Content-Encoding`. Every `X-Platform-*` name is refused too (the host's own headers).
 */
export const REFUSED_HEADERS: ReadonlySet<string> = new Set([
  ...HOP_BY_HOP_HEADERS,
  ...FRAMING_HEADERS,
  'proxy-authenticate',
  'proxy-authorization',
  'content-type',
  'content-encoding',
  'x-platform-signature',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

/** Why `name` may not be a custom header, or undefined when it may. */
function nameProblem(name: string): string | undefined {
  if (/[\r\n]/.test(name)) return 'a header name may not contain CR or LF';
  if (name.length === 0) return 'a header name may not be empty';
  if (name.length > MAX_HEADER_NAME_LENGTH)
    return `a header name has at most ${MAX_HEADER_NAME_LENGTH} characters`;
  if (!HEADER_NAME_PATTERN.test(name))
    return "a header name is an RFC 7230 token: letters, digits and !#$%&'*+-.^_`|~ only (no spaces or colons)";
  const lower = name.toLowerCase();
  if (lower.startsWith('x-platform-'))
    return "the X-Platform-* headers are the host's own (signature, event and delivery ids); choose another name";
  if (REFUSED_HEADERS.has(lower))
    return `"${name}" is set by the host itself (hop-by-hop, framing, body or signature header); it may not be a custom header`;
  return undefined;
}

/** Why `value` may not be a header value, or undefined when it may. */
function valueProblem(value: string): string | undefined {
  if (/[\r\n]/.test(value)) return 'a header value may not contain CR or LF';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value))
    return 'a header value may not contain control characters';
  if (value.length > MAX_HEADER_VALUE_LENGTH)
    return `a header value has at most ${MAX_HEADER_VALUE_LENGTH} characters`;
  return undefined;
}

/**
 * The problems of a custom headers object (name → value), each naming the header; empty when it is fine.
 * Names are case-insensitive: two spellings of one name are a problem too.
 *
 * @example
 * customHeaderProblems({ 'X-Api-Key': 'k' }); // []
 * customHeaderProblems({ Host: 'evil' }); // ['header "Host": "Host" is set by the host itself (...)']
 */
export function customHeaderProblems(headers: Readonly<Record<string, string>>): string[] {
  const problems: string[] = [];
  const names = Object.keys(headers);
  if (names.length > MAX_CUSTOM_HEADERS)
    problems.push(`at most ${MAX_CUSTOM_HEADERS} custom headers; got ${names.length}`);
  const seen = new Map<string, string>();
  for (const name of names) {
    const shown = JSON.stringify(name);
    const nameIssue = nameProblem(name);
    if (nameIssue) problems.push(`header ${shown}: ${nameIssue}`);
    const value = headers[name];
    const valueIssue = typeof value === 'string' ? valueProblem(value) : 'a header value is a string';
    if (valueIssue) problems.push(`header ${shown}: ${valueIssue}`);
    const lower = name.toLowerCase();
    const earlier = seen.get(lower);
    if (earlier !== undefined)
      problems.push(`header ${shown}: the same name as "${earlier}" (names are case-insensitive)`);
    seen.set(lower, name);
  }
  return problems;
}
