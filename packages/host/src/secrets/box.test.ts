import { describe, expect, it } from 'vitest';
import { createSecretBox, generateKey, keyIdOf, NO_KEY_BOX, parseKey, reveal } from './box.js';
import { openConfiguration, sealConfiguration } from './configuration.js';
import { isSecretsError } from './errors.js';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return isSecretsError(error) ? error.code : `not a SecretsError: ${String(error)}`;
  }
  return undefined;
};

describe('secret box', () => {
  it('seals into enc:v1:<keyId>:<iv>:<ct+tag> without the plaintext, and opens it again', () => {
    const box = createSecretBox({ current: generateKey() });
    const sealed = box.seal('whsec_the_plain_secret');
    expect(sealed).toMatch(/^enc:v1:[A-Za-z0-9_-]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(sealed.split(':')[2]).toBe(box.currentKeyId);
    expect(sealed).not.toContain('whsec_the_plain_secret');
    expect(box.open(sealed)).toBe('whsec_the_plain_secret');
    // a fresh IV each time: equal plaintexts do not give equal values
    expect(box.seal('whsec_the_plain_secret')).not.toBe(sealed);
    expect(box.open(box.seal(''))).toBe('');
    expect(box.open(box.seal('ünïcødé ✓'))).toBe('ünïcødé ✓');
  });

  it('refuses a value altered anywhere (ciphertext, tag, IV, key id in the header)', () => {
    const box = createSecretBox({ current: generateKey() });
    const sealed = box.seal('secret');
    const [prefix, version, keyId, iv, body] = sealed.split(':') as [string, string, string, string, string];
    const flip = (text: string) => `${text[0] === 'A' ? 'B' : 'A'}${text.slice(1)}`;
    expect(codeOf(() => box.open([prefix, version, keyId, iv, flip(body)].join(':')))).toBe('tampered');
    expect(codeOf(() => box.open([prefix, version, keyId, flip(iv), body].join(':')))).toBe('tampered');
    expect(codeOf(() => box.open([prefix, version, keyId, iv, body.slice(0, 10)].join(':')))).toBe(
      'malformed',
    );
    expect(codeOf(() => box.open('enc:v1:only-two:parts'))).toBe('malformed');
  });

  it('another key opens nothing: unknown_key names the key id it needs, never a key', () => {
    const key = generateKey();
    const sealed = createSecretBox({ current: key }).seal('secret');
    const other = createSecretBox({ current: generateKey() });
    let message = '';
    try {
      other.open(sealed);
    } catch (error) {
      message = (error as Error).message;
      expect(isSecretsError(error) && error.code).toBe('unknown_key');
    }
    expect(message).toContain(keyIdOf(parseKey(key, 'k')));
    expect(message).toContain('PLATFORM_SECRETS_OLD_KEYS');
    expect(message).not.toContain(key);
    expect(codeOf(() => NO_KEY_BOX.open(sealed))).toBe('unknown_key');
  });

  it('rotation: old keys open, only the current key seals; needsReseal finds plaintext and old-key values', () => {
    const oldKey = generateKey();
    const before = createSecretBox({ current: oldKey });
    const sealedOld = before.seal('secret');
    const after = createSecretBox({ current: generateKey(), old: [oldKey] });
    expect(after.open(sealedOld)).toBe('secret');
    expect(after.needsReseal(sealedOld)).toBe(true);
    expect(after.needsReseal('whsec_plaintext')).toBe(true);
    const resealed = after.seal(after.open(sealedOld));
    expect(after.needsReseal(resealed)).toBe(false);
    expect(codeOf(() => before.open(resealed))).toBe('unknown_key');
  });

  it('accepts a key as base64, base64url or hex; refuses anything else, naming where it came from', () => {
    const bytes = Buffer.alloc(32, 7);
    for (const text of [bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex')]) {
      expect(parseKey(text, 'X').equals(bytes)).toBe(true);
    }
    for (const bad of [
      '',
      'short',
      Buffer.alloc(16).toString('hex'),
      Buffer.alloc(31).toString('base64url'),
    ]) {
      let message = '';
      try {
        parseKey(bad, 'PLATFORM_SECRETS_KEY');
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^PLATFORM_SECRETS_KEY is not a secrets key: it must be 32 random bytes/);
    }
  });

  it('reveal reads plaintext from before encryption at rest as it is', () => {
    const box = createSecretBox({ current: generateKey() });
    expect(reveal(box, 'whsec_legacy')).toBe('whsec_legacy');
    expect(reveal(box, box.seal('x'))).toBe('x');
  });
});

describe('configuration secrets', () => {
  it('seals oauth_credentials only, opens them back to the same value; other keys stay plain', () => {
    const box = createSecretBox({ current: generateKey() });
    const configuration = {
      url: 'https://x.test',
      oauth_credentials: { access_token: 'tok_123', expires_at: 5 },
    };
    const stored = sealConfiguration(box, configuration);
    expect(stored.url).toBe('https://x.test');
    expect(typeof stored.oauth_credentials).toBe('string');
    expect(JSON.stringify(stored)).not.toContain('tok_123');
    expect(openConfiguration(box, stored)).toEqual(configuration);
    // idempotent under the current key; without secret keys nothing is copied
    expect(sealConfiguration(box, stored)).toBe(stored);
    const plain = { url: 'https://x.test' };
    expect(sealConfiguration(box, plain)).toBe(plain);
    expect(openConfiguration(box, plain)).toBe(plain);
    // a storage without key keeps the shape as given
    expect(sealConfiguration(NO_KEY_BOX, configuration)).toBe(configuration);
  });

  it('seals a broker destination (its credentials) and opens it back; the event switches stay plain', () => {
    const box = createSecretBox({ current: generateKey() });
    const configuration = {
      space_content_updated: true,
      destination: { kind: 'rabbitmq', url: 'amqp://app:s3cret-pw@mq.example.com:5672', queue: 'events' },
    };
    const stored = sealConfiguration(box, configuration);
    expect(stored.space_content_updated).toBe(true);
    expect(typeof stored.destination).toBe('string');
    expect(JSON.stringify(stored)).not.toContain('s3cret-pw');
    expect(openConfiguration(box, stored)).toEqual(configuration);
  });
});
