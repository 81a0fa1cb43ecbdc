import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import { install } from './installations.js';
import { testContext, useTempStorage } from './test-support.js';

const temp = useTempStorage('install-');

describe('install: a wrong value is refused, an incomplete configuration waits', () => {
  it('answers 400 invalid_configuration for a webhook URL it may not call, and creates nothing', async () => {
    const ctx = await testContext(temp.dir, temp.storage);
    const error = await install(ctx, {
      integration: 'webhook',
      space: 'sp-bad',
      configuration: { url: 'ftp://example.com/hook', space_content_updated: true },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_configuration' });
    expect((error as HttpError).message).toMatch(/^configuration\.url: /);
    expect((error as HttpError).details).toMatchObject({ configurationErrors: [{ key: 'url' }] });
    expect(await temp.storage.installations.list({ spaceId: 'sp-bad' })).toEqual([]);
  });

  it('installs pending what is only incomplete: nothing given, or no event ticked yet', async () => {
    const ctx = await testContext(temp.dir, temp.storage);
    const empty = await install(ctx, { integration: 'webhook', space: 'sp-empty', configuration: {} });
    expect(empty.status).toBe('pending');
    const unticked = await install(ctx, {
      integration: 'webhook',
      space: 'sp-unticked',
      configuration: { url: 'https://example.com/hook', space_content_updated: false },
    });
    expect(unticked.status).toBe('pending');
    expect(unticked.configurationErrors.map((e) => e.key)).toEqual(['space_content_updated']);
  });
});
