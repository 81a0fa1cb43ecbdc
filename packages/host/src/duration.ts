/**
 * Milliseconds of each unit a duration setting may use (`s`, `m`, `h`, `d`).
 *
 * @example
 * UNIT_MS.h; // 3600000
 */
export const UNIT_MS: Readonly<Record<'s' | 'm' | 'h' | 'd', number>> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * Reads one duration: a whole number with `s`, `m`, `h` or `d` (`30s`, `5m`, `24h`, `3d`), as ms; undefined
 * when it is not one.
 *
 * @example
 * parseDuration('24h'); // 86400000
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,7})\s*([smhd])$/.exec(text.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : undefined;
}
