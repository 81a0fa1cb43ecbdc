import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../packages/host/test/helpers.js';
import { listenOn, publishAndInstall } from './support.js';

/**
 * Escape attempts from inside workerd (docs/security.md "What integrations can and cannot reach"):
 * Node's modules, the host's environment, dynamic code and raw sockets all fail, and a TCP listener on
 * loopback sees no connection.
 */

let t: TestHost;
let tcp: TcpServer;
let tcpPort: number;
let connections = 0;
let http: { server: Server; port: number };

beforeAll(async () => {
  tcp = createTcpServer((socket) => {
    connections++;
    socket.end('reached\n');
  });
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  tcpPort = (tcp.address() as AddressInfo).port;
  http = await listenOn('127.0.0.1', (_req, res) => {
    connections++;
    res.end('reached');
  });
  process.env.H16_CANARY = 'host-secret-value';
  t = await startTestHost({ PLATFORM_INVOCATION_TIMEOUT_MS: '10000' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  tcp?.close();
  http?.server.close();
  delete process.env.H16_CANARY;
});

const ATTEMPTS = (tcpPort: number, httpPort: number) => `
const attempts = {
  require: () => require('fs').readFileSync('/etc/passwd', 'utf8'),
  importFs: async () => (await import('node:fs')).readFileSync('/etc/passwd', 'utf8'),
  importFsBare: async () => (await import('fs')).readFileSync('/etc/passwd', 'utf8'),
  childProcess: async () => (await import('node:child_process')).execSync('id').toString(),
  processEnv: () => JSON.stringify(globalThis.process.env),
  processBinding: () => globalThis.process.binding('fs'),
  eval: () => eval('1 + 1'),
  newFunction: () => new Function('return 1 + 1')(),
  indirectEval: () => (0, globalThis.eval)('1 + 1'),
  wasmCompile: () => new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])),
  sockets: async () => {
    const { connect } = await import('cloudflare:sockets');
    const socket = connect({ hostname: '127.0.0.1', port: ${tcpPort} });
    const reader = socket.readable.getReader();
    const { value } = await reader.read();
    return new TextDecoder().decode(value);
  },
  fetchLoopback: async () => (await fetch('http://127.0.0.1:${httpPort}/')).text(),
  fetchFile: async () => (await fetch('file:///etc/passwd')).text(),
  deno: () => globalThis.Deno.readTextFileSync('/etc/passwd'),
  bun: () => globalThis.Bun.file('/etc/passwd'),
};
export default { async fetch(request) {
  const event = JSON.parse((await request.formData()).get('event'));
  if (event.type !== 'fetch') return new Response('{}');
  const results = {};
  for (const [name, attempt] of Object.entries(attempts)) {
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('gave up after 1 s')), 1000));
    try { results[name] = { ok: true, value: String(await Promise.race([attempt(), timeout])).slice(0, 200) }; }
    catch (e) { results[name] = { ok: false, error: String(e && e.message || e).slice(0, 200) }; }
  }
  return Response.json(results);
} };`;

describe('escape attempts inside workerd', () => {
  it('fail: no Node modules, no host environment, no dynamic code, no sockets, no loopback', async () => {
    const escapee = await publishAndInstall(t, 'escapee', ATTEMPTS(tcpPort, http.port));
    const res = await fetch(`${escapee.urls.publicEndpoint}/try`);
    expect(res.status).toBe(200);
    const results = (await res.json()) as Record<string, { ok: boolean; value?: string; error?: string }>;
    const text = JSON.stringify(results);
    for (const [name, result] of Object.entries(results)) {
      expect(result.ok, `${name}: ${JSON.stringify(result)}`).toBe(false);
    }
    expect(Object.keys(results)).toHaveLength(15);
    expect(text).not.toContain('root:');
    expect(text).not.toContain('host-secret-value');
    expect(text).not.toContain('reached');
    expect(connections).toBe(0);
  }, 30_000);
});
