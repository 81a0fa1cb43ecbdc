import { describe, expect, it } from 'vitest';
import { generateSecret } from './secret.js';
import { sign, verify } from './signature.js';

describe('generateSecret', () => {
  it('is whsec_ + 32 random bytes in base64url', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const bytes = Buffer.from(secret.slice('whsec_'.length), 'base64url');
    expect(bytes).toHaveLength(32);
    expect(new Set(Array.from({ length: 50 }, generateSecret)).size).toBe(50);
  });

  it('signs and verifies', async () => {
    const secret = generateSecret();
    await expect(verify('{}', await sign('{}', secret), secret)).resolves.toHaveProperty('timestamp');
  });
});
