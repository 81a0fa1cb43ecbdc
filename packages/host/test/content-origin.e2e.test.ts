import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost } from './helpers.js';

/** The content origin's listener (docs/security.md "Integration content"): which port it takes. */

let busy: Server;
let busyPort: number;

beforeAll(async () => {
  // Occupy a port P+1 whose P is free, so PORT=P finds its default content port taken.
  for (;;) {
    busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    busyPort = (busy.address() as AddressInfo).port;
    const probe = createServer();
    const free = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(busyPort - 1, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) break;
    busy.close();
  }
});
afterAll(() => {
  busy.close();
});

describe('content origin listener', () => {
  it('serves on PORT + 1 by default, or on a free port when that one is taken', async () => {
    const t = await startTestHost({ PORT: String(busyPort - 1) });
    try {
      expect(new URL(t.host.url).port).toBe(String(busyPort - 1));
      const contentPort = new URL(t.host.contentUrl).port;
      expect(contentPort).not.toBe(String(busyPort));
      expect(contentPort).not.toBe(String(busyPort - 1));
      expect((await fetch(`${t.host.contentUrl}/v1/status`)).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('refuses to start when an explicit PLATFORM_CONTENT_PORT is taken, naming it', async () => {
    await expect(startTestHost({ PLATFORM_CONTENT_PORT: String(busyPort) })).rejects.toThrow(
      new RegExp(`127\\.0\\.0\\.1:${busyPort} \\(PLATFORM_CONTENT_PORT\\): the port is in use`),
    );
  });
});
