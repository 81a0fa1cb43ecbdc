import { createServer, type ServerResponse } from 'node:http';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../test/ports.js';
import { ExchangeTimeout, postExchange } from './exchange.js';

const seen: string[] = [];
const hanging: ServerResponse[] = [];
const server = createServer((req, res) => {
  seen.push(req.url ?? '');
  req.resume();
  req.on('end', () => {
    if (req.url === '/hold') hanging.push(res);
    else if (req.url?.startsWith('/echo')) res.writeHead(200).end(`path=${req.url}`);
    else if (req.url === '/processing') {
      res.writeProcessing(); // a 102 before the final status
      setTimeout(() => res.writeHead(201).end('done'), 20);
    } else res.writeHead(404).end();
  });
});
let base: string;

beforeAll(async () => {
  base = await listenOnLoopback(server);
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const post = (path: string, dispatcher: Agent, timeoutMs = 2000) =>
  postExchange({
    url: new URL(`${base}${path}`),
    headers: { 'content-type': 'application/json' },
    body: Buffer.from('{}'),
    dispatcher,
    timeoutMs,
    excerptBytes: 4096,
  });

describe('postExchange', () => {
  it.each([
    [
      'sends the path with its query string and returns the status and body',
      '/echo?a=1&b=2',
      200,
      'path=/echo?a=1&b=2',
    ],
    ['skips informational answers and reports the final status', '/processing', 201, 'done'],
  ])('%s', async (_name, path, status, body) => {
    const dispatcher = new Agent();
    const { statusCode, excerpt } = await post(path, dispatcher);
    expect(statusCode).toBe(status);
    expect(excerpt.toString()).toBe(body);
    await dispatcher.close();
  });

  it('the deadline also covers waiting for a socket; a request that timed out there is never sent', async () => {
    const dispatcher = new Agent({ connections: 1 });
    const before = seen.length;
    const held = post('/hold', dispatcher, 5000);
    await expect.poll(() => hanging.length).toBe(1);
    const started = performance.now();
    // The only socket is busy with /hold: this one waits in the pool until its deadline.
    await expect(post('/echo?queued', dispatcher, 300)).rejects.toBeInstanceOf(ExchangeTimeout);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(1500);
    hanging.shift()?.writeHead(200).end('released');
    await expect(held).resolves.toMatchObject({ statusCode: 200 });
    // The timed-out request got the socket after /hold ended and was aborted before being written.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.slice(before)).toEqual(['/hold']);
    await dispatcher.close();
  });
});
