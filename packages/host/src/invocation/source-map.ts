import { SourceMap, type SourceMapPayload } from 'node:module';
import type { LogLine } from '../storage/index.js';

/** Name workerd and the in-process executor give the bundle module in stack frames. */
const BUNDLE_FRAME = /\bintegration\.js:(\d+):(\d+)/g;
const INLINE_MAP = /\n\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/;
const CACHE_SIZE = 16;
const maps = new Map<string, SourceMap | null>();

/** The inline source map at the end of a bundle (dev builds carry one), parsed once per bundle hash. */
function mapOf(bundle: string, bundleHash: string): SourceMap | null {
  const cached = maps.get(bundleHash);
  if (cached !== undefined) return cached;
  let map: SourceMap | null = null;
  const match = INLINE_MAP.exec(bundle.slice(-Math.min(bundle.length, 4 * 1024 * 1024)));
  if (match?.[1]) {
    try {
      map = new SourceMap(JSON.parse(Buffer.from(match[1], 'base64').toString('utf8')) as SourceMapPayload);
    } catch {
      map = null;
    }
  }
  if (maps.size >= CACHE_SIZE) {
    const oldest = maps.keys().next();
    if (!oldest.done) maps.delete(oldest.value);
  }
  maps.set(bundleHash, map);
  return map;
}

/** A source of the map as the author knows it: `../src/index.ts` (relative to dist/) -> `src/index.ts`. */
function shownSource(source: string): string {
  const modules = source.lastIndexOf('node_modules/');
  if (modules >= 0) return source.slice(modules);
  return source.replace(/^[a-z]+:\/\//, '').replace(/^(\.\.\/)+/, '');
}

/**
 * Rewrites `integration.js:656:13` stack frames in log lines to the author's source
 * (`src/index.ts:26:13`) when the bundle carries an inline source map (`platform dev` publishes
 * one); lines are returned unchanged otherwise. See docs/first-integration.md.
 *
 * @example
 * ```ts
 * const lines = mapStackLines(parsedLines, integration.bundle, integration.bundleHash);
 * ```
 */
export function mapStackLines(lines: LogLine[], bundle: string, bundleHash: string): LogLine[] {
  if (!lines.some((l) => BUNDLE_FRAME.test(l.message))) return lines;
  BUNDLE_FRAME.lastIndex = 0;
  const map = mapOf(bundle, bundleHash);
  if (!map) return lines;
  return lines.map((line) => ({
    ...line,
    message: line.message.replace(BUNDLE_FRAME, (frame, l: string, c: string) => {
      const entry = map.findEntry(Number(l) - 1, Number(c) - 1);
      if (!('originalSource' in entry) || !entry.originalSource) return frame;
      return `${shownSource(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    }),
  }));
}

/**
 * The error lines of a repeated attempt, shortened to their first line and first frame: the full
 * trace was in the first attempt's log.
 *
 * @example
 * ```ts
 * shortenRepeatedTraces(lines); // 'Unhandled error: Error: boom (at src/index.ts:26:13; trace in attempt 1)'
 * ```
 */
export function shortenRepeatedTraces(lines: LogLine[]): LogLine[] {
  return lines.map((line) => {
    if (line.level !== 'error') return line;
    const [first, ...rest] = line.message.split('\n');
    const frame = rest
      .find((r) => /^\s*at /.test(r))
      ?.trim()
      .replace(/^at /, '');
    if (!frame) return line;
    const where = /\(([^)]+)\)$/.exec(frame)?.[1] ?? frame;
    return { ...line, message: `${first} (at ${where}; full trace in attempt 1)` };
  });
}
