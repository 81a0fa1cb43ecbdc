import { describe, expect, it } from 'vitest';
import { deliverySigningOf, signingRules, signingSettingsOf } from './settings.js';

describe('signature settings', () => {
  it('defaults to platform alone; both headers only count with another scheme', () => {
    expect(signingSettingsOf({})).toEqual({ scheme: 'platform', bothHeaders: false });
    expect(signingSettingsOf({ signature_scheme: 'nope' })).toEqual({
      scheme: 'platform',
      bothHeaders: false,
    });
    expect(signingSettingsOf({ signature_both_headers: true })).toEqual({
      scheme: 'platform',
      bothHeaders: false,
    });
    expect(
      signingSettingsOf({ signature_scheme: 'standard-webhooks', signature_both_headers: true }),
    ).toEqual({
      scheme: 'standard-webhooks',
      bothHeaders: true,
    });
  });

  it('hands the private key to ed25519 deliveries only', () => {
    expect(deliverySigningOf({ signature_scheme: 'ed25519' }, ['whsk_k', 'whsk_old']).privateKeys).toEqual([
      'whsk_k',
      'whsk_old',
    ]);
    expect(deliverySigningOf({ signature_scheme: 'standard-webhooks' }, ['whsk_k']).privateKeys).toEqual([]);
    expect(deliverySigningOf({ signature_scheme: 'ed25519' }, []).privateKeys).toEqual([]);
  });

  it('names the key and the fix of a wrong combination', () => {
    expect(signingRules({})).toEqual([]);
    expect(signingRules({ signature_scheme: 'ed25519', signature_both_headers: true })).toEqual([]);
    const [both] = signingRules({ signature_both_headers: true });
    expect(both?.key).toBe('signature_both_headers');
    expect(both?.message).toContain('choose standard-webhooks or ed25519');
  });
});
