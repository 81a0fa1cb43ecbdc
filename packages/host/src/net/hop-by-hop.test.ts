import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { forwardableHeaders, toResponse } from '../executor/http.js';
import { createGuardedFetch } from './fetch.js';
import {
  FRAMING_HEADERS,
  forwardableRequestHeaders,
  HOP_BY_HOP_HEADERS,
  hopByHopNames,
} from './hop-by-hop.js';
import { parseAllowPrivateTargets } from './policy.js';

/** A request carrying every hop-by-hop field, one field named by `Connection`, and end-to-end fields. */
function hopHeaders(): Headers {
  const headers = new Headers({ connection: 'keep-alive, X-Hop-Only', 'x-hop-only': 'secret-of-this-hop' });
  for (const name of HOP_BY_HOP_HEADERS) if (name !== 'connection') headers.set(name, 'x');
  headers.set('trailer', 'x-checksum');
  headers.set('content-type', 'application/json');
  headers.set('x-end-to-end', 'kept');
  return headers;
}

describe('hop-by-hop fields (RFC 9110, 7.6.1)', () => {
  it('lists Connection, the fields it names, and the fields that always need removal', () => {
    expect([...HOP_BY_HOP_HEADERS].sort()).toEqual(
      ['connection', 'keep-alive', 'proxy-connection', 'te', 'transfer-encoding', 'upgrade'].sort(),
    );
    expect(hopByHopNames(new Headers({ connection: ' Close ,X-A,, x-b ' }))).toEqual(
      new Set([...HOP_BY_HOP_HEADERS, 'close', 'x-a', 'x-b']),
    );
  });

  it('forwarded requests keep end-to-end fields only, at every forwarding place', () => {
    const kept = { 'content-type': 'application/json', 'x-end-to-end': 'kept' };
    expect(Object.fromEntries(forwardableRequestHeaders(hopHeaders()))).toEqual(kept);
    // The executors (remote, workerd) forward with the same rule.
    expect(forwardableHeaders(hopHeaders())).toEqual(kept);
    expect(forwardableHeaders(hopHeaders(), ['x-end-to-end'])).toEqual({
      'content-type': 'application/json',
    });
    for (const name of FRAMING_HEADERS) expect(forwardableHeaders(new Headers({ [name]: '1' }))).toEqual({});
  });

  it('responses handed back by the executors lose hop-by-hop fields, named ones included', () => {
    const response = toResponse(
      200,
      { Connection: 'X-Hop-Only', 'X-Hop-Only': '1', 'Keep-Alive': 'timeout=5', 'x-kept': ['a', 'b'] },
      new Uint8Array(),
    );
    expect([...response.headers]).toEqual([['x-kept', 'a, b']]);
  });

  it('the outbound gate does not send them to the target', async () => {
    let seen: IncomingHttpHeaders = {};
    const server = createServer((req, res) => {
      seen = req.headers;
      res.end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const gate = createGuardedFetch(parseAllowPrivateTargets('127.0.0.1'));
      const headers = new Headers({ connection: 'X-Hop-Only', 'x-hop-only': '1', 'proxy-connection': 'x' });
      headers.set('x-end-to-end', 'kept');
      const response = await gate(new Request(`http://127.0.0.1:${port}/`, { headers }));
      expect(await response.text()).toBe('ok');
      expect(seen['x-end-to-end']).toBe('kept');
      expect(seen['x-hop-only']).toBeUndefined();
      expect(seen['proxy-connection']).toBeUndefined();
    } finally {
      server.close();
    }
  });
});
