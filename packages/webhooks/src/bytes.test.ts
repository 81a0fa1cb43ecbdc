import { describe, expect, it } from 'vitest';
import { concatBytes, fromBase64, fromHex, toBase64Url, toBytes, toHex, utf8 } from './bytes.js';

describe('byte helpers (shared with @platform/runtime)', () => {
  it('hex round-trips and refuses what is not hex of even length', () => {
    const bytes = new Uint8Array([0, 1, 127, 128, 255]);
    expect(toHex(bytes)).toBe('00017f80ff');
    expect(fromHex('00017F80ff')).toEqual(bytes);
    expect(fromHex('abc')).toBeUndefined();
    expect(fromHex('zz')).toBeUndefined();
  });

  it('base64url round-trips, also past one 32 KiB chunk, and accepts padded base64', () => {
    const big = new Uint8Array(70_000).map((_, i) => (i * 31) % 256);
    expect(fromBase64(toBase64Url(big))).toEqual(big);
    expect(toBase64Url(new Uint8Array([251, 255]))).toBe('-_8');
    expect(fromBase64('+/8=')).toEqual(new Uint8Array([251, 255]));
    expect(fromBase64('a')).toBeUndefined();
    expect(fromBase64('a*bc')).toBeUndefined();
  });

  it('utf8, concatBytes and toBytes give fresh bytes', () => {
    const source = utf8('é');
    expect(source).toEqual(new Uint8Array([0xc3, 0xa9]));
    expect(concatBytes([utf8('a'), source])).toEqual(new Uint8Array([0x61, 0xc3, 0xa9]));
    const copy = toBytes(source);
    copy[0] = 0;
    expect(source[0]).toBe(0xc3);
    expect(toBytes(source.buffer)).toEqual(new Uint8Array([0xc3, 0xa9]));
  });
});
