import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe } from 'vitest';
import { receiverContract, sendTo } from '../test/receiver-contract.js';
import { createNodeWebhookListener } from './node.js';

export async function listen(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('createNodeWebhookListener (node:http)', () => {
  receiverContract(async (options) => {
    const { url, close } = await listen(createServer(createNodeWebhookListener(options)));
    return { send: (req) => sendTo(url, req), close };
  });
});
