import { WebhookVerificationError } from './errors.js';

/** Name of the HTTP header carrying the signature. */
export const SIGNATURE_HEADER = 'X-Platform-Signature';

/** A parsed `X-Platform-Signature` value. */
export interface ParsedSignatureHeader {
  /** `t`: unix seconds at which the host signed the request. */
  timestamp: number;
  /** Every `v1` digest, as 64 lowercase hex characters, in header order. */
  signatures: string[];
}

const MAX_HEADER_LENGTH = 8192;
const MAX_SIGNATURES = 16;
const TIMESTAMP = /^\d{1,15}$/;
const DIGEST = /^[0-9a-fA-F]{64}$/;

function malformed(detail: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'malformed_signature',
    `The ${SIGNATURE_HEADER} header is malformed: ${detail}. Expected "t=<unix seconds>,v1=<64 hex characters>".`,
  );
}

/**
 * Parses an `X-Platform-Signature` header value (pure, no crypto). Rules: split on commas, trim each
 * part, split each on its first `=`; need exactly one `t` (integer seconds) and at least one usable `v1`
 * (64 hex characters; uppercase is accepted and lowercased). A `v1` that is not 64 hex characters is
 * ignored, like other keys (`v0`, `v2`, ...), so that a header with one good entry among unusable
 * ones still verifies when the good one matches; empty parts are skipped.
 *
 * @example
 * parseSignatureHeader('t=1700000000,v1=5f0c...') // { timestamp: 1700000000, signatures: ['5f0c...'] }
 * @throws {WebhookVerificationError} `missing_signature` or `malformed_signature`.
 */
export function parseSignatureHeader(header: string | null | undefined): ParsedSignatureHeader {
  if (header === null || header === undefined || header.trim() === '') {
    throw new WebhookVerificationError(
      'missing_signature',
      `The ${SIGNATURE_HEADER} header is missing. Requests from the platform always carry it; this request was not signed by the platform.`,
    );
  }
  if (typeof header !== 'string') throw malformed('it is not a string');
  if (header.length > MAX_HEADER_LENGTH) throw malformed(`it is longer than ${MAX_HEADER_LENGTH} characters`);

  let timestamp: number | undefined;
  const signatures: string[] = [];
  let unusable = 0;
  for (const rawPart of header.split(',')) {
    const part = rawPart.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) throw malformed(`"${part.slice(0, 20)}" is not a key=value pair`);
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined) throw malformed('"t" appears more than once');
      if (!TIMESTAMP.test(value)) throw malformed('"t" must be an integer number of unix seconds');
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!DIGEST.test(value)) {
        unusable++;
        continue;
      }
      if (signatures.length === MAX_SIGNATURES) throw malformed(`more than ${MAX_SIGNATURES} "v1" entries`);
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === undefined) throw malformed('"t" is missing');
  if (signatures.length === 0) {
    throw malformed(
      unusable > 0
        ? `none of its ${unusable} "v1" entries is 64 hexadecimal characters`
        : 'no "v1" signature is present',
    );
  }
  return { timestamp, signatures };
}
