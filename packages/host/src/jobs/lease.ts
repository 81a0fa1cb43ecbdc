/**
 * How long a claimed job stays leased: past this, a crashed worker's job is taken again. The same rule
 * for every kind of job (`deliver` with the delivery timeout, `invoke` with the invocation timeout).
 *
 * @example
 * leaseMs(10_000); // 15_000
 */
export function leaseMs(attemptTimeoutMs: number): number {
  return attemptTimeoutMs + 5_000;
}
