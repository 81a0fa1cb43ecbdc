import { describe, expect, it } from 'vitest';
import { closest, didYouMean, editDistance } from './suggest.js';

describe('suggestions', () => {
  it('counts a swap of two neighbours as one edit', () => {
    expect(editDistance('titel', 'title')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests near misses only', () => {
    expect(closest('desciption', ['description', 'title'])).toBe('description');
    expect(closest('Title', ['title'])).toBe('title');
    expect(closest('xyz', ['title'])).toBeUndefined();
    expect(closest('c', ['a', 'b'])).toBeUndefined();
    expect(didYouMean('scopse', ['scopes'])).toBe(' Did you mean `scopes`?');
    expect(didYouMean('zzzzzz', ['scopes'])).toBe('');
  });
});
