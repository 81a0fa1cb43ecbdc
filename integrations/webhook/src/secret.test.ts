import { ApiError, createApiClient } from '@platform/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskSecret, webhookSecretApi } from './secret';
import { startTestHost } from './test-host';

describe('maskSecret', () => {
  it('keeps the prefix and the last 4 characters only', () => {
    const secret = `whsec_${'A'.repeat(39)}abcd`;
    expect(maskSecret(secret)).toBe('whsec_…abcd');
    expect(maskSecret('whsec_short')).toBe('whsec_…');
    expect(maskSecret('plain-value-without-prefix-1234')).toBe('…1234');
  });
});

describe('webhookSecretApi', () => {
  let host: Awaited<ReturnType<typeof startTestHost>>;
  beforeAll(async () => {
    host = await startTestHost({
      'GET /v1/installations/inst%2F1/webhook-secret': { status: 200, body: { nope: true } },
    });
  });
  afterAll(async () => {
    await host.close();
  });

  it('encodes the id and refuses an answer without a secret', async () => {
    const api = webhookSecretApi(createApiClient({ endpoint: host.url, token: 'pit_tok' }));
    const error = await api.getSecret('inst/1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('invalid_response');
    expect(host.requests[0]?.path).toBe('/v1/installations/inst%2F1/webhook-secret');
  });
});
