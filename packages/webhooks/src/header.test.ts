import { describe, expect, it } from 'vitest';
import { parseSignatureHeader } from './header.js';

const D = 'ab'.repeat(32);

describe('parseSignatureHeader', () => {
  it('parses t and every v1, lowercasing hex, ignoring other keys', () => {
    expect(parseSignatureHeader(`t=12,v1=${D},v0=x,v1=${D.toUpperCase()},v2=${D}`)).toEqual({
      timestamp: 12,
      signatures: [D, D],
    });
  });

  it('ignores v1 entries that are not 64 hex characters and keeps the usable ones', () => {
    expect(parseSignatureHeader(`t=5,v1=deadbeef,v1=${D},v1=,v1=${'z'.repeat(64)}`)).toEqual({
      timestamp: 5,
      signatures: [D],
    });
  });

  it('keeps "=" inside values of unknown keys and ignores them', () => {
    expect(parseSignatureHeader(`t=1,v1=${D},ext=a=b`).signatures).toEqual([D]);
  });

  it.each([
    ['no pair', 'hello', /not a key=value pair/],
    ['empty key', `=1,t=1,v1=${D}`, /not a key=value pair/],
    ['t twice', `t=1,t=2,v1=${D}`, /more than once/],
    ['no t', `v1=${D}`, /"t" is missing/],
    ['no v1', 't=1', /no "v1"/],
    ['only a short v1', 't=1,v1=abc', /none of its 1 "v1" entries is 64 hexadecimal/],
    ['only non-hex v1s', `t=1,v1=${'z'.repeat(64)},v1=deadbeef`, /none of its 2 "v1" entries/],
    ['t not an integer', `t=1e9,v1=${D}`, /integer/],
    ['too long', `t=1,v1=${D},x=${'a'.repeat(9000)}`, /longer than/],
    ['too many v1', `t=1${`,v1=${D}`.repeat(17)}`, /more than 16/],
  ])('rejects %s', (_name, header, message) => {
    expect(() => parseSignatureHeader(header)).toThrow(message);
    expect(() => parseSignatureHeader(header)).toThrow(
      expect.objectContaining({ code: 'malformed_signature' }),
    );
  });

  it('reports a missing header separately', () => {
    for (const value of [undefined, null, '', ' ']) {
      expect(() => parseSignatureHeader(value)).toThrow(
        expect.objectContaining({ code: 'missing_signature' }),
      );
    }
  });
});
