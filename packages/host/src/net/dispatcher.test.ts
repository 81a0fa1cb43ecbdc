import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedDispatcher } from './dispatcher.js';
import { TargetBlockedError } from './errors.js';
import { createGuardedFetch } from './fetch.js';
import { type AddressPolicy, parseAllowPrivateTargets } from './policy.js';

let server: Server;
let port: number;
const hits: Array<{ method: string; url: string; body: string; remotePort: number }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hits.push({
        method: req.method ?? '',
        url: req.url ?? '',
        body: Buffer.concat(chunks).toString(),
        remotePort: req.socket.remotePort ?? 0,
      });
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/target` }).end();
        return;
      }
      res
        .writeHead(200, { 'content-type': 'text/plain', 'x-echo': req.headers['x-test'] ?? '' })
        .end('hello');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.close();
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('createGuardedDispatcher', () => {
  it('refuses a literal loopback IP when private targets are blocked, before connecting', async () => {
    const dispatcher = createGuardedDispatcher(parseAllowPrivateTargets(undefined));
    const before = hits.length;
    const error = await rejection(request(`http://127.0.0.1:${port}/`, { dispatcher }));
    expect(error).toBeInstanceOf(TargetBlockedError);
    const blocked = error as TargetBlockedError;
    expect(blocked.code).toBe('target_blocked');
    expect(blocked.retryable).toBe(false);
    expect(blocked.message).toContain('127.0.0.1 (loopback)');
    expect(hits.length).toBe(before);
    await dispatcher.close();
  });

  it('refuses a name resolving to loopback (checked on the resolved address)', async () => {
    const dispatcher = createGuardedDispatcher(parseAllowPrivateTargets(undefined));
    const before = hits.length;
    const error = await rejection(request(`http://localhost:${port}/`, { dispatcher }));
    expect(error).toBeInstanceOf(TargetBlockedError);
    expect((error as TargetBlockedError).host).toBe('localhost');
    expect((error as Error).message).toContain('"localhost" resolves to 127.0.0.1 (loopback)');
    expect(hits.length).toBe(before);
    await dispatcher.close();
  });

  it('refuses when ANY resolved address is private, even if another is public', async () => {
    const lookups: string[] = [];
    const dispatcher = createGuardedDispatcher(parseAllowPrivateTargets(undefined), {
      lookup: ((hostname: string, _options: unknown, callback: (...args: unknown[]) => void) => {
        lookups.push(hostname);
        callback(null, [
          { address: '93.184.216.34', family: 4 },
          { address: '10.0.0.7', family: 4 },
        ]);
      }) as never,
    });
    const error = await rejection(request('http://rebind.example/', { dispatcher }));
    expect(error).toBeInstanceOf(TargetBlockedError);
    expect((error as Error).message).toContain('"rebind.example" resolves to 10.0.0.7');
    expect(lookups).toEqual(['rebind.example']);
    await dispatcher.close();
  });

  it.each([
    ['localhost.', '127.0.0.1', 'loopback'],
    ['VM.', '10.0.0.5', 'private (RFC 1918)'],
    ['Router.LAN.', '169.254.1.1', 'link-local'],
    ['metadata.google.internal.', '169.254.169.254', 'link-local'],
    ['metadata.', 'fe80::1', 'link-local'],
    ['mapped.example.', '::ffff:127.0.0.1', 'loopback (IPv4 embedded in IPv6, mapped)'],
  ])('refuses %s when the resolver answers %s (%s), at connection time', async (name, address, reason) => {
    const asked: string[] = [];
    const dispatcher = createGuardedDispatcher(parseAllowPrivateTargets(undefined), {
      lookup: ((hostname: string, _options: unknown, callback: (...args: unknown[]) => void) => {
        asked.push(hostname);
        // whatever was asked, the "resolver" points it at this test's loopback server
        callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
      }) as never,
    });
    const before = hits.length;
    const error = await rejection(request(`http://${name}:${port}/`, { dispatcher }));
    expect(error).toBeInstanceOf(TargetBlockedError);
    expect((error as Error).message).toContain(`${address} (${reason})`);
    expect(asked.length).toBeGreaterThan(0);
    expect(hits.length).toBe(before);
    await dispatcher.close();
  });

  it('allows a target inside the CIDR allow-list and pools connections', async () => {
    const dispatcher = createGuardedDispatcher(parseAllowPrivateTargets('127.0.0.0/8'));
    const first = await request(`http://127.0.0.1:${port}/a`, { dispatcher });
    expect(first.statusCode).toBe(200);
    expect(await first.body.text()).toBe('hello');
    const second = await request(`http://localhost:${port}/b`, { dispatcher });
    expect(await second.body.text()).toBe('hello');
    const third = await request(`http://127.0.0.1:${port}/c`, { dispatcher });
    await third.body.text();
    const [a, , c] = hits.slice(-3);
    expect(a?.url).toBe('/a');
    expect(c?.remotePort).toBe(a?.remotePort); // same keep-alive socket
    await dispatcher.close();
  });

  it('refuses a target outside the allow-list', async () => {
    const dispatcher = createGuardedDispatcher(parseAllowPrivateTargets('10.0.0.0/8'));
    const error = await rejection(request(`http://127.0.0.1:${port}/`, { dispatcher }));
    expect((error as Error).message).toContain('not in the allow-list');
    await dispatcher.close();
  });

  it('checks the address the socket actually connected to', async () => {
    // A policy that answers differently the second time it is asked (as a rebinding would).
    const base = parseAllowPrivateTargets('1');
    let calls = 0;
    const flaky: AddressPolicy = {
      ...base,
      refusal: (ip) => (++calls === 1 ? base.refusal(ip) : 'changed since the lookup'),
      allows: (ip) => flaky.refusal(ip) === null,
    };
    const dispatcher = createGuardedDispatcher(flaky);
    const error = await rejection(request(`http://127.0.0.1:${port}/`, { dispatcher }));
    expect(error).toBeInstanceOf(TargetBlockedError);
    expect((error as Error).message).toContain('changed since the lookup');
    expect(calls).toBe(2);
    await dispatcher.close();
  });
});

describe('createGuardedFetch', () => {
  it('forwards method, headers and body and returns a global Response', async () => {
    const gate = createGuardedFetch(parseAllowPrivateTargets('127.0.0.1'));
    const response = await gate(
      new Request(`http://127.0.0.1:${port}/post`, {
        method: 'POST',
        headers: { 'x-test': 'yes', connection: 'close' },
        body: 'payload',
      }),
    );
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-echo')).toBe('yes');
    expect(await response.text()).toBe('hello');
    expect(hits.at(-1)).toMatchObject({ method: 'POST', url: '/post', body: 'payload' });
  });

  it('does not follow redirects', async () => {
    const gate = createGuardedFetch(parseAllowPrivateTargets('1'));
    const before = hits.length;
    const response = await gate(new Request(`http://127.0.0.1:${port}/redirect`));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`http://127.0.0.1:${port}/target`);
    expect(hits.length).toBe(before + 1);
  });

  it('rejects with TargetBlockedError for a blocked target', async () => {
    const gate = createGuardedFetch(parseAllowPrivateTargets(undefined));
    const error = await rejection(gate(new Request(`http://localhost:${port}/`)));
    expect(error).toBeInstanceOf(TargetBlockedError);
    expect((error as TargetBlockedError).code).toBe('target_blocked');
  });
});
