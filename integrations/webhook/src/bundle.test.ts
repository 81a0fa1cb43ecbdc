import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeLogsHeader, envelopeRequest } from '@platform/runtime/testing';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEnvironment } from './test-host';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'dist', 'integration.js');

/** Fails clearly when dist/integration.js is missing or older than a source file. */
function assertFreshBundle(): void {
  let built: number;
  try {
    built = statSync(bundle).mtimeMs;
  } catch {
    throw new Error(`${bundle} is missing: run \`node scripts/build.mjs\` first`);
  }
  const src = join(root, 'src');
  const stale = readdirSync(src).filter(
    (f) => !f.includes('.test.') && statSync(join(src, f)).mtimeMs > built,
  );
  if (stale.length > 0) {
    throw new Error(`${bundle} is older than src/${stale.join(', src/')}: run \`node scripts/build.mjs\``);
  }
}

describe('dist/integration.js in workerd', () => {
  let mf: Miniflare;
  beforeAll(async () => {
    assertFreshBundle();
    mf = new Miniflare({ modules: true, scriptPath: bundle, compatibilityDate: '2025-09-01' });
    await mf.ready;
  });
  afterAll(async () => {
    await mf?.dispose();
  });

  async function post(event: object, configuration: Record<string, unknown>) {
    const request = envelopeRequest(event, {
      environment: webhookEnvironment('space', 'http://127.0.0.1:9', configuration),
    });
    const response = await mf.dispatchFetch('http://integration.local/v1', {
      method: 'POST',
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      body: new Uint8Array(await request.arrayBuffer()),
    });
    return response;
  }

  it('has a single default export (workerd refuses non-function named exports)', async () => {
    const module = (await import(/* @vite-ignore */ bundle)) as Record<string, unknown>;
    expect(Object.keys(module)).toEqual(['default']);
  });

  it('acknowledges installation_setup and returns its log line', async () => {
    const configuration = { url: 'https://hooks.example.com/x', space_content_updated: true };
    const response = await post(
      {
        type: 'installation_setup',
        eventId: 'evt_wd',
        installationId: 'inst_space',
        status: 'active',
        target: 'space',
        configuration,
      },
      configuration,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    const messages = decodeLogsHeader(response.headers.get('x-platform-logs')).map((l) => l.message);
    expect(messages.join('\n')).toContain(
      'webhook installation inst_space set up: target space, status active, url https://hooks.example.com/…, events [space_content_updated]',
    );
  });
});
