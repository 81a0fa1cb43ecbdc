import { describe, expect, it } from 'vitest';
import { createIntegration } from './integration';
import { ConsoleCapture, findAsyncStorage, InvocationLog, MAX_LOG_BYTES, MAX_LOG_LINES } from './logs';
import { decodeLogsHeader, envelopeRequest, testExecutionContext } from './testing';

const updated = { type: 'space_content_updated', eventId: 'evt_1', spaceId: 'spc_1', revisionId: 'rev_1' };
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two invocations in flight at once, each logging one line (`from <name>`) while the other runs. */
async function overlapping(capture: ConsoleCapture, names: [string, string]): Promise<InvocationLog[]> {
  const logs = names.map(() => new InvocationLog());
  await Promise.all(
    names.map((name, i) =>
      capture.run(logs[i] as InvocationLog, async () => {
        await tick(5);
        console.info(`from ${name}`);
        await tick(20);
      }),
    ),
  );
  return logs;
}

describe('InvocationLog limits', () => {
  it('keeps at most 100 lines, marking the truncation', () => {
    const log = new InvocationLog();
    for (let i = 0; i < 150; i++) log.add('info', [`line ${i}`]);
    const lines = decodeLogsHeader(log.toHeader());
    expect(lines).toHaveLength(MAX_LOG_LINES);
    expect(lines.at(-1)).toMatchObject({
      level: 'warn',
      message: '[truncated: 51 more log line(s) not shown]',
    });
  });

  it('keeps at most 8 KiB of messages, cutting the line that overflows', () => {
    const log = new InvocationLog();
    for (let i = 0; i < 5; i++) log.add('info', ['é'.repeat(1000)]);
    const lines = decodeLogsHeader(log.toHeader());
    const bytes = lines.reduce((n, l) => n + new TextEncoder().encode(l.message).length, 0);
    expect(bytes).toBeLessThanOrEqual(MAX_LOG_BYTES);
    expect(lines.at(-2)?.message.endsWith('…[cut]')).toBe(true);
    expect(lines.at(-1)?.message).toMatch(/^\[truncated/);
  });

  it('redacts the installation token and secrets, formats objects and errors', () => {
    const log = new InvocationLog(['pit_abcdef123', 'sec_value_1']);
    log.add('warn', ['token pit_abcdef123 and sec_value_1', { a: 1 }, new RangeError('bad')]);
    expect(log.lines[0]?.message).toBe('token [redacted] and [redacted] {"a":1} RangeError: bad');
  });

  it('ignores lines after close', () => {
    const log = new InvocationLog();
    log.close();
    log.add('info', ['late']);
    expect(log.lines).toHaveLength(0);
  });
});

describe('invocation logs through createIntegration', () => {
  it('captures context.logger and console.* in order, not waitUntil lines', async () => {
    const integration = createIntegration({
      events: {
        space_content_updated: async (_event, context) => {
          context.logger.debug('one');
          console.log('two', { n: 2 });
          console.warn('three');
          context.waitUntil(tick(5).then(() => console.log('after the answer')));
          context.logger.error('token is', context.environment.apiTokens.installation);
        },
      },
    });
    const ctx = testExecutionContext();
    const response = await integration.fetch(envelopeRequest(updated), {}, ctx);
    await ctx.settle();
    const lines = decodeLogsHeader(response.headers.get('x-platform-logs'));
    expect(lines.map((l) => [l.level, l.message])).toEqual([
      ['debug', 'one'],
      ['info', 'two {"n":2}'],
      ['warn', 'three'],
      ['error', 'token is [redacted]'],
    ]);
    expect(typeof lines[0]?.time).toBe('number');
  });

  it('does not mix console lines of overlapping invocations (AsyncLocalStorage)', async () => {
    const integration = createIntegration({
      events: {
        space_content_updated: async (event) => {
          for (let i = 0; i < 3; i++) {
            console.log(`${event.revisionId}-${i}`);
            await tick(2);
          }
        },
      },
    });
    const responses = await Promise.all(
      ['a', 'b', 'c'].map((r) => integration.fetch(envelopeRequest({ ...updated, revisionId: r }))),
    );
    for (const [i, response] of responses.entries()) {
      const r = ['a', 'b', 'c'][i];
      const messages = decodeLogsHeader(response.headers.get('x-platform-logs')).map((l) => l.message);
      expect(messages).toEqual([`${r}-0`, `${r}-1`, `${r}-2`]);
    }
  });
});

describe('ConsoleCapture', () => {
  it('finds AsyncLocalStorage on Node', () => {
    expect(findAsyncStorage()).toBeDefined();
    expect(new ConsoleCapture().exact).toBe(true);
  });

  it('turns its storage off once no invocation is in flight, and on again for the next one', async () => {
    // Node.js 20 runs a hook on every promise of the thread while an AsyncLocalStorage is enabled.
    const real = findAsyncStorage<InvocationLog>();
    if (!real?.disable) throw new Error('this test needs Node.js AsyncLocalStorage');
    const calls: string[] = [];
    const storage = {
      getStore: () => real.getStore(),
      run: <R>(store: InvocationLog, fn: () => R): R => {
        calls.push('run');
        return real.run(store, fn);
      },
      disable: () => {
        calls.push('disable');
        real.disable?.();
      },
    };
    const capture = new ConsoleCapture(storage);
    const a = new InvocationLog();
    const b = new InvocationLog();
    let releaseA = () => {};
    const runA = capture.run(a, async () => {
      await new Promise<void>((resolve) => {
        releaseA = resolve;
      });
      console.info('a, after b ended');
    });
    await capture.run(b, async () => {
      await tick(5);
      console.info('from b');
    });
    // b ended while a is still in flight: the storage stays on, and a's lines stay a's.
    expect(calls).toEqual(['run', 'run']);
    releaseA();
    await runA;
    expect(calls).toEqual(['run', 'run', 'disable']);
    expect(a.lines.map((l) => l.message)).toEqual(['a, after b ended']);
    expect(b.lines.map((l) => l.message)).toEqual(['from b']);

    // After it was turned off, the next invocations are captured exactly again, overlapping or not.
    const [c, d] = await overlapping(capture, ['c', 'd']);
    expect(c?.lines.map((l) => l.message)).toEqual(['from c']);
    expect(d?.lines.map((l) => l.message)).toEqual(['from d']);
    expect(calls).toEqual(['run', 'run', 'disable', 'run', 'run', 'disable']);
  });

  it("where the storage cannot be turned off (workerd's disable() throws), invocations answer and capture as before", async () => {
    const real = findAsyncStorage<InvocationLog>();
    if (!real) throw new Error('this test needs AsyncLocalStorage');
    let attempts = 0;
    const storage = {
      getStore: () => real.getStore(),
      run: <R>(store: InvocationLog, fn: () => R): R => real.run(store, fn),
      disable: () => {
        attempts += 1;
        throw new Error('asyncLocalStorage.disable() is not implemented');
      },
    };
    const capture = new ConsoleCapture(storage);
    for (const name of ['first', 'second']) {
      const log = new InvocationLog();
      const result = await capture.run(log, async () => {
        await tick(1);
        console.info(name);
        return `${name} answered`;
      });
      expect(result).toBe(`${name} answered`);
      expect(log.lines.map((l) => l.message)).toEqual([name]);
    }
    expect(attempts).toBe(1);
  });

  it('without AsyncLocalStorage: captures a lone invocation, drops console lines when invocations overlap', async () => {
    const capture = new ConsoleCapture(null);
    expect(capture.exact).toBe(false);
    const lone = new InvocationLog();
    await capture.run(lone, async () => {
      console.info('alone');
    });
    expect(lone.lines.map((l) => l.message)).toEqual(['alone']);

    const [a, b] = await overlapping(capture, ['a', 'b']);
    expect(a?.lines).toHaveLength(0);
    expect(b?.lines).toHaveLength(0);
  });
});
