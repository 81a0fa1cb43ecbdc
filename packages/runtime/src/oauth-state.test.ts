import { fromBase64, toBase64Url, utf8 } from '@platform/webhooks/bytes';
import { describe, expect, it } from 'vitest';
import { checkOAuthState, OAUTH_STATE_TTL_MS, signOAuthState } from './oauth-state';

const key = 'client_secret_value';

describe('OAuth state', () => {
  it('round-trips for the same installation within 10 minutes', async () => {
    const now = Date.now();
    const state = await signOAuthState('inst_1', key, now);
    expect(await checkOAuthState(state, 'inst_1', key, now + OAUTH_STATE_TTL_MS - 1)).toBeUndefined();
  });

  it('is different every time (random nonce)', async () => {
    expect(await signOAuthState('inst_1', key)).not.toBe(await signOAuthState('inst_1', key));
  });

  it('refuses an expired state', async () => {
    const now = Date.now();
    const state = await signOAuthState('inst_1', key, now);
    expect(await checkOAuthState(state, 'inst_1', key, now + OAUTH_STATE_TTL_MS + 1)).toBe('expired');
  });

  it('refuses a state issued for another installation', async () => {
    expect(await checkOAuthState(await signOAuthState('inst_1', key), 'inst_2', key)).toBe(
      'wrong_installation',
    );
  });

  it('refuses a tampered payload, a forged key and garbage', async () => {
    const state = await signOAuthState('inst_1', key);
    const [payload, mac] = state.split('.') as [string, string];
    const data = JSON.parse(new TextDecoder().decode(fromBase64(payload))) as Record<string, unknown>;
    const extended = toBase64Url(utf8(JSON.stringify({ ...data, x: Date.now() + 3_600_000 })));
    expect(await checkOAuthState(`${extended}.${mac}`, 'inst_1', key)).toBe('tampered');
    expect(await checkOAuthState(await signOAuthState('inst_1', 'guessed_key'), 'inst_1', key)).toBe(
      'tampered',
    );
    expect(await checkOAuthState('', 'inst_1', key)).toBe('malformed');
    expect(await checkOAuthState('a.b.c', 'inst_1', key)).toBe('malformed');
  });
});
