import { describe, expect, it } from 'vitest';
import { useColor } from './io.js';

describe('useColor', () => {
  it('colors a terminal only, NO_COLOR wins, FORCE_COLOR forces', () => {
    expect(useColor({}, true)).toBe(true);
    expect(useColor({}, false)).toBe(false);
    expect(useColor({ TERM: 'dumb' }, true)).toBe(false);
    expect(useColor({ NO_COLOR: '1' }, true)).toBe(false);
    expect(useColor({ NO_COLOR: '' }, true)).toBe(true);
    expect(useColor({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(useColor({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(useColor({ FORCE_COLOR: '1', NO_COLOR: '1' }, false)).toBe(false);
  });
});
