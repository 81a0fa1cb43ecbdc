import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type { LogLine } from '../storage/index.js';
import { decisionLine } from './invocation-worker.js';
import { mapStackLines, shortenRepeatedTraces } from './source-map.js';

const SOURCE = [
  '// header',
  '',
  'export function f(): never {',
  '  const x: number = 1;',
  "  throw new Error('x' + x);",
  '}',
  '',
].join('\n');

/** A bundle with an inline source map, and the `integration.js:L:C` of its `throw`. */
function bundle(): { code: string; frame: string } {
  const out = transformSync(SOURCE, { loader: 'ts', sourcemap: 'external', sourcefile: '../src/index.ts' });
  const code = `${out.code}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(out.map).toString('base64')}\n`;
  const lines = out.code.split('\n');
  const line = lines.findIndex((l) => l.includes('throw'));
  const column = (lines[line] ?? '').indexOf('throw');
  return { code, frame: `integration.js:${line + 1}:${column + 1}` };
}

const line = (message: string, level: LogLine['level'] = 'error'): LogLine => ({ level, message, time: 1 });

describe('mapStackLines', () => {
  it('rewrites bundle frames to the source lines of the inline map', () => {
    const { code, frame } = bundle();
    const lines = [line(`Unhandled error: Error: x1\n    at f (${frame})\n    at __executor_main.js:18:24`)];
    expect(mapStackLines(lines, code, 'hash-a')[0]?.message).toBe(
      'Unhandled error: Error: x1\n    at f (src/index.ts:5:3)\n    at __executor_main.js:18:24',
    );
  });

  it('leaves lines alone without a map or without frames', () => {
    const { frame } = bundle();
    const lines = [line(`at f (${frame})`)];
    expect(mapStackLines(lines, 'export default {}', 'hash-b')).toEqual(lines);
    const plain = [line('no frames here', 'info')];
    expect(mapStackLines(plain, bundle().code, 'hash-c')).toBe(plain);
  });
});

describe('retry lines', () => {
  it('shortens a repeated trace to its first line and frame', () => {
    const [short] = shortenRepeatedTraces([
      line('Unhandled error: Error: x1\n    at f (src/index.ts:5:3)\n    at g (y.js:1:1)'),
    ]);
    expect(short?.message).toBe('Unhandled error: Error: x1 (at src/index.ts:5:3; full trace in attempt 1)');
    expect(shortenRepeatedTraces([line('one line', 'error')])[0]?.message).toBe('one line');
  });

  it('says what happens after each attempt', () => {
    expect(decisionLine({ retryInMs: 2_050 }, 2)).toBe('attempt 2 failed; retrying in 2.1 s (attempt 3)');
    expect(decisionLine({ retryInMs: 300_000 }, 3)).toBe('attempt 3 failed; retrying in 5 min (attempt 4)');
    expect(decisionLine({ state: 'exhausted' }, 4)).toBe('gave up after 4 attempts');
    expect(decisionLine({ state: 'failed' }, 1)).toBe(
      'attempt 1 failed; not retried (this failure is final)',
    );
    expect(decisionLine({ state: 'succeeded' }, 1)).toBeUndefined();
  });
});
