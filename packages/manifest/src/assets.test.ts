import { describe, expect, it } from 'vitest';
import { checkAsset, MAX_ASSET_BYTES, manifestAssets } from './assets.js';

/** The first bytes of a PNG of `width` x `height` (signature + IHDR): enough for its type and size. */
function png(width: number, height: number, total = 64): Uint8Array {
  const bytes = new Uint8Array(total);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  return bytes;
}
const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"></svg>');
const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 10, 0, 5, 0, 0, 0, 0]);

describe('checkAsset', () => {
  it('takes the type from the bytes: an SVG icon, a 2:1 PNG preview', () => {
    expect(checkAsset('icon', 'icon `i.svg`', svg)).toEqual({
      contentType: 'image/svg+xml',
      width: 32,
      height: 32,
    });
    expect(checkAsset('preview', 'preview image `p.png`', png(1600, 800))).toEqual({
      contentType: 'image/png',
      width: 1600,
      height: 800,
    });
  });

  it('refuses what is not an image of the allowed types, naming the file', () => {
    expect(checkAsset('icon', 'icon `i.png`', new TextEncoder().encode('hello'))).toEqual({
      error: 'icon `i.png` must be a PNG, JPEG, SVG or WebP image',
    });
    expect(checkAsset('preview', 'preview image `p.gif`', gif)).toEqual({
      error: 'preview image `p.gif` is a GIF image; use PNG or JPEG',
    });
    expect(checkAsset('preview', 'preview image `p.svg`', svg)).toEqual({
      error: 'preview image `p.svg` is a SVG image; use PNG or JPEG',
    });
  });

  it('warns about a preview that is not 2:1 but accepts it', () => {
    const checked = checkAsset('preview', 'preview image `p.png`', png(1000, 1000));
    expect(checked).toMatchObject({
      contentType: 'image/png',
      warning: expect.stringMatching(/1000x1000; use a 2:1/),
    });
  });

  it('refuses a file over 4 MiB, saying how big it is', () => {
    const big = png(1600, 800, MAX_ASSET_BYTES + 1);
    expect(checkAsset('preview', 'preview image `p.png`', big)).toEqual({
      error: 'preview image `p.png` is 4.0 MiB; an image may be at most 4 MiB',
    });
    expect('error' in checkAsset('preview', 'p', png(1600, 800, MAX_ASSET_BYTES))).toBe(false);
  });
});

describe('manifestAssets', () => {
  it('lists the icon, then the previews, each path once', () => {
    expect(manifestAssets({ icon: 'a.png', previewImages: ['b.png', 'a.png', 'c.png', 'b.png'] })).toEqual([
      ['a.png', 'icon'],
      ['b.png', 'preview'],
      ['c.png', 'preview'],
    ]);
    expect(manifestAssets({})).toEqual([]);
  });
});
