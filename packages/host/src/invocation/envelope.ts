import { sign } from '@platform/webhooks';

/** What goes into one envelope post (docs/contracts.md "Envelope"). */
export interface EnvelopeInput {
  /** The integration's URL base; the envelope is posted to `${base}/${version}`. */
  base: string;
  version: string;
  event: unknown;
  environment: unknown;
  /** Raw body of a `fetch` event, passed through byte for byte. */
  fetchBody?: Uint8Array;
  /** The integration's signing secret: the envelope carries `X-Platform-Signature` over its raw bytes. */
  signingSecret: string;
  /**
   * W3C trace context of the invocation (tracing on): sent as the `traceparent` header (outside the
   * signature, which covers the body: it is for correlation only), read by the runtime as `context.traceparent`.
   */
  traceparent?: string;
}

/**
 * Builds the signed multipart envelope the host posts to an integration.
 *
 * @example
 * const request = await buildEnvelope({ base: 'http://integration', version: 'v1', event, environment, signingSecret });
 * const { response } = await executor.invoke(deployment, request);
 */
export async function buildEnvelope(input: EnvelopeInput): Promise<Request> {
  const form = new FormData();
  form.append('event', JSON.stringify(input.event));
  form.append('environment', JSON.stringify(input.environment));
  if (input.fetchBody && input.fetchBody.byteLength > 0) {
    form.append(
      'fetch-body',
      new Blob([new Uint8Array(input.fetchBody)], { type: 'application/octet-stream' }),
      'fetch-body',
    );
  }
  const url = `${input.base.replace(/\/+$/, '')}/${input.version}`;
  // Serialize once so the signature covers exactly the bytes that are sent.
  const draft = new Request(url, { method: 'POST', body: form });
  const body = new Uint8Array(await draft.arrayBuffer());
  const signature = await sign(body, input.signingSecret);
  const headers: Record<string, string> = {
    'content-type': draft.headers.get('content-type') ?? 'multipart/form-data',
    'x-platform-signature': signature,
  };
  if (input.traceparent !== undefined) headers.traceparent = input.traceparent;
  return new Request(url, { method: 'POST', body, headers });
}
