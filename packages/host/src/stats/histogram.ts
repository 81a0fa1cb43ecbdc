/**
 * A small fixed histogram of milliseconds (durations, latencies), the same on every host and every
 * dialect: bucket 0 holds values under 1 ms, bucket k (k ≥ 1) holds [2^((k-1)/4), 2^(k/4)) ms, four
 * buckets per doubling, so a percentile read from it is within ≈ 9 % of the true value (exact for
 * values under 8 ms, whose buckets hold one whole number each). Histograms add up exactly: a minute's is
 * the sum of its installations', an hour's the sum of its minutes'. Stored as a JSON array of counts
 * without its trailing zeros. Pure functions.
 */

/** Buckets per doubling. */
const PER_DOUBLING = 4;
/** The last bucket takes everything from 2^(LAST-1)/4 ms up (≈ 9.6 days for LAST = 121). */
const LAST = 121;

/** Counts per bucket; trailing zeros may be absent. */
export type Histogram = number[];

/**
 * The bucket of a value in ms.
 *
 * @example
 * bucketOf(0); // 0
 * bucketOf(1); // 1
 * bucketOf(2); // 5
 */
export function bucketOf(ms: number): number {
  if (!(ms >= 1)) return 0;
  return Math.min(LAST, 1 + Math.floor(Math.log2(ms) * PER_DOUBLING));
}

/**
 * Adds one value to `histogram` (in place).
 *
 * @example
 * const h: Histogram = [];
 * record(h, 12); // h[15] === 1
 */
export function record(histogram: Histogram, ms: number): void {
  const k = bucketOf(ms);
  while (histogram.length <= k) histogram.push(0);
  histogram[k] = (histogram[k] ?? 0) + 1;
}

/**
 * Adds `other` into `into` (in place) and returns `into`.
 *
 * @example
 * merge([1, 0, 2], [0, 1]); // [1, 1, 2]
 */
export function merge(into: Histogram, other: readonly number[]): Histogram {
  while (into.length < other.length) into.push(0);
  for (const [k, n] of other.entries()) into[k] = (into[k] ?? 0) + n;
  return into;
}

/**
 * How many values a histogram holds.
 *
 * @example
 * total([1, 0, 2]); // 3
 */
export function total(histogram: readonly number[]): number {
  let n = 0;
  for (const c of histogram) n += c;
  return n;
}

/** The value a bucket stands for: its one whole number of ms, or its geometric middle (0.1 ms). */
function representative(k: number): number {
  if (k === 0) return 0;
  const lo = 2 ** ((k - 1) / PER_DOUBLING);
  const hi = 2 ** (k / PER_DOUBLING);
  const first = Math.ceil(lo);
  if (first + 1 >= hi) return first;
  return Math.round(Math.sqrt(lo * hi) * 10) / 10;
}

/**
 * The `q` quantile (0 < q ≤ 1) of the values in `histogram`, in ms (null when it is empty): the value of
 * the bucket holding the value of rank ⌈q·n⌉.
 *
 * @example
 * percentile([0, 3, 0, 0, 0, 1], 0.5); // 1
 * percentile([], 0.99); // null
 */
export function percentile(histogram: readonly number[], q: number): number | null {
  const n = total(histogram);
  if (n === 0) return null;
  const rank = Math.max(1, Math.ceil(q * n));
  let seen = 0;
  for (const [k, c] of histogram.entries()) {
    seen += c;
    if (seen >= rank) return representative(k);
  }
  return representative(histogram.length - 1);
}

/**
 * The stored text of a histogram: its counts as JSON, trailing zeros cut.
 *
 * @example
 * encode([1, 0, 2, 0, 0]); // "[1,0,2]"
 */
export function encode(histogram: readonly number[]): string {
  let end = histogram.length;
  while (end > 0 && histogram[end - 1] === 0) end -= 1;
  return JSON.stringify(histogram.slice(0, end));
}

/**
 * A stored histogram read back (anything that is not an array of counts reads as empty).
 *
 * @example
 * decode('[1,0,2]'); // [1, 0, 2]
 */
export function decode(text: string): Histogram {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.map((n) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0));
  } catch {
    return [];
  }
}
