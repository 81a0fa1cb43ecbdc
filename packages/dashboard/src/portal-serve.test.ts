import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalCsp, servePortal } from './portal-serve';

let dir: string;
const options = {
  contentBase: 'http://127.0.0.1:8081',
  apiOrigin: 'http://127.0.0.1:8080',
  frameAncestors: [] as string[],
};
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portal-serve-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>portal</title>');
  await writeFile(join(dir, 'assets', 'portal-ABCDEFGH.js'), 'console.log(1)');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const get = (path: string, method = 'GET', opts = options) =>
  servePortal(new Request(`http://127.0.0.1:8081${path}`, { method }), dir, opts);

describe('servePortal', () => {
  it('answers /portal/ with the page, a CSP of its own assets and the API origin, nosniff and no-referrer', async () => {
    const response = await get('/portal/');
    expect(response?.status).toBe(200);
    expect(await response?.text()).toContain('<title>portal</title>');
    const csp = response?.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain('script-src http://127.0.0.1:8081/portal/assets/;');
    expect(csp).toContain('style-src http://127.0.0.1:8081/portal/assets/;');
    expect(csp).toContain('connect-src http://127.0.0.1:8080;');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|'self'/);
    expect(response?.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response?.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response?.headers.get('x-frame-options')).toBe('DENY');
    expect(response?.headers.get('cache-control')).toBe('no-cache');
  });

  it('lets the configured origins frame it (and drops X-Frame-Options, which cannot name them)', async () => {
    const response = await get('/portal/', 'GET', {
      ...options,
      frameAncestors: ['https://docs.example.com', 'https://*.example.org'],
    });
    expect(response?.headers.get('content-security-policy')).toContain(
      'frame-ancestors https://docs.example.com https://*.example.org',
    );
    expect(response?.headers.get('x-frame-options')).toBeNull();
  });

  it('serves its hashed assets for a year, redirects /portal to /portal/, 404s the rest under /portal/', async () => {
    const asset = await get('/portal/assets/portal-ABCDEFGH.js');
    expect(asset?.status).toBe(200);
    expect(asset?.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset?.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset?.headers.get('content-security-policy')).toBe(portalCsp(options));
    const redirect = await get('/portal?x=1');
    expect(redirect?.status).toBe(308);
    expect(redirect?.headers.get('location')).toBe('/portal/?x=1');
    for (const path of ['/portal/assets/missing.js', '/portal/other', '/portal/assets/../index.html/x']) {
      expect((await get(path))?.status, path).toBe(404);
    }
    expect((await get('/portal/assets/..%2f..%2f..%2fpackage.json'))?.status).toBe(404);
    expect(await get('/portal/assets/%2e%2e/%2e%2e/etc/passwd')).toBeNull(); // the URL is /etc/passwd
    expect(await get('/v1/integrations')).toBeNull();
    expect(await get('/portal/', 'POST')).toBeNull();
    const head = await get('/portal/', 'HEAD');
    expect(head?.status).toBe(200);
    expect(await head?.text()).toBe('');
  });

  it('says how to build the page when it is not built', async () => {
    const response = await servePortal(new Request('http://h/portal/'), join(dir, 'nowhere'), options);
    expect(response?.status).toBe(503);
    expect(await response?.text()).toContain('npm run build -w @platform/dashboard');
  });
});
