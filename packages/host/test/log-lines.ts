import type { Readable } from 'node:stream';

/** One line of a process's output, with its JSON object when it is one. */
export interface OutputLine {
  text: string;
  json: Record<string, unknown> | null;
}

/**
 * Collects a stream's lines (a host's stdout) and waits for one that matches.
 *
 * @example
 * const out = new LineCollector(child.stdout);
 * const ready = await out.waitFor((l) => typeof l.json?.url === 'string');
 */
export class LineCollector {
  readonly lines: OutputLine[] = [];
  #partial = '';
  #waiters = new Set<() => void>();

  constructor(stream: Readable) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (this.#partial + chunk).split('\n');
      this.#partial = parts.pop() ?? '';
      for (const text of parts) this.lines.push({ text, json: parseObject(text) });
      for (const wake of this.#waiters) wake();
    });
  }

  /** The first line matching `match`, waiting up to `timeoutMs` for it. */
  waitFor(match: (line: OutputLine) => boolean, timeoutMs = 20_000): Promise<OutputLine> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.lines.find(match);
        if (!found) return;
        cleanup();
        resolve(found);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no matching line in ${timeoutMs} ms; got:\n${this.text()}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
      };
      this.#waiters.add(check);
      check();
    });
  }

  /** Everything collected so far. */
  text(): string {
    return this.lines.map((l) => l.text).join('\n');
  }
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
