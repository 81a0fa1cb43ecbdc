import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createHostLogger, logFormat } from './log-format.js';

describe('logFormat', () => {
  it('is pretty on a terminal and JSON elsewhere by default; an explicit choice wins', () => {
    expect(logFormat(undefined, true)).toBe('pretty');
    expect(logFormat(undefined, false)).toBe('json');
    expect(logFormat('auto', true)).toBe('pretty');
    expect(logFormat('json', true)).toBe('json');
    expect(logFormat('pretty', false)).toBe('pretty');
    expect(() => logFormat('yaml', true)).toThrow(
      'PLATFORM_LOG_FORMAT must be auto, json or pretty; got "yaml".',
    );
  });
});

describe('createHostLogger', () => {
  const capture = () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString('utf8'));
        done();
      },
    });
    return { stream, text: () => chunks.join('') };
  };

  it('writes one JSON object a line in json', () => {
    const out = capture();
    createHostLogger('json', {}, out.stream).info(
      { url: 'http://127.0.0.1:8080' },
      'platform host listening',
    );
    const line = JSON.parse(out.text().trim()) as { msg: string; url: string };
    expect(line).toMatchObject({ msg: 'platform host listening', url: 'http://127.0.0.1:8080' });
  });

  it('writes readable lines in pretty: level and message first, then the fields, no JSON', () => {
    const out = capture();
    createHostLogger('pretty', {}, out.stream).warn(
      { url: 'http://127.0.0.1:8080' },
      'platform host listening',
    );
    const text = out.text();
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: platform host listening\n/);
    expect(text).toContain('url: "http://127.0.0.1:8080"');
    expect(() => JSON.parse(text)).toThrow();
  });
});
