/** Levenshtein distance between two short strings. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The closest candidate to a misspelled word, when it is close enough to be a likely typo.
 *
 * @example
 * ```ts
 * closest('titel', ['title', 'name']); // 'title'
 * closest('zzz', ['title']); // undefined
 * ```
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const lower = word.toLowerCase();
  for (const candidate of candidates) {
    const distance = lower === candidate.toLowerCase() ? 0 : editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = word.length < 4 ? 0 : Math.max(1, Math.floor(word.length / 3));
  return bestDistance <= limit ? best : undefined;
}

/** ` Did you mean \`x\`?` or an empty string. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const match = closest(word, candidates);
  return match === undefined ? '' : ` Did you mean \`${match}\`?`;
}
