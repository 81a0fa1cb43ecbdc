import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControlOf, DASHBOARD_CSP, dashboardCsp, isApiPath, serveDashboard } from './serve';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dashboard-serve-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>x</title>');
  await writeFile(join(dir, 'assets', 'app-ABCDEFGH.js'), 'console.log(1)');
  await writeFile(join(dir, 'assets', 'styles-ABCDEFGH.css'), 'body{}');
  await writeFile(join(tmpdir(), 'outside-dashboard.txt'), 'secret');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const get = (path: string, method = 'GET') => serveDashboard(new Request(`http://h${path}`, { method }), dir);

describe('serveDashboard', () => {
  it('answers / and unknown app paths with index.html, no-cache and the strict CSP', async () => {
    for (const path of ['/', '/installations/inst_1', '/spaces/docs']) {
      const response = await get(path);
      expect(response?.status).toBe(200);
      expect(response?.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response?.headers.get('cache-control')).toBe('no-cache');
      expect(response?.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
      expect(await response?.text()).toContain('<title>x</title>');
    }
    expect(DASHBOARD_CSP).toContain("default-src 'self'");
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).not.toContain('unsafe-inline');
  });

  it('lets ContentKit frame and show images of the content origin only, when the host has one', async () => {
    const content = 'http://127.0.0.1:8081';
    const response = await serveDashboard(new Request('http://h/spaces/docs'), dir, {
      contentOrigin: content,
    });
    const csp = response?.headers.get('content-security-policy') ?? '';
    expect(csp).toBe(dashboardCsp(content));
    expect(csp).toContain(`frame-src 'self' ${content}`);
    expect(csp).toContain(`img-src 'self' data: ${content}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(dashboardCsp(undefined)).toBe(DASHBOARD_CSP);
  });

  it('serves hashed assets with their content type, cached for a year', async () => {
    const js = await get('/assets/app-ABCDEFGH.js');
    expect(js?.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js?.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js?.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await js?.text()).toBe('console.log(1)');
    const css = await get('/assets/styles-ABCDEFGH.css');
    expect(css?.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers a missing asset 404 (never index.html as JavaScript), HEAD without a body', async () => {
    const missing = await get('/assets/app-OLDOLDOL.js');
    expect(missing?.status).toBe(404);
    const head = await get('/', 'HEAD');
    expect(head?.status).toBe(200);
    expect(await head?.text()).toBe('');
  });

  it('leaves API paths and other methods to the API, and never leaves its folder', async () => {
    for (const path of ['/v1/installations', '/v1', '/healthz', '/openapi.json'])
      expect(await get(path)).toBeNull();
    expect(await get('/', 'POST')).toBeNull();
    const outside = await get('/..%2F..%2Foutside-dashboard.txt');
    expect(await outside?.text()).not.toBe('secret');
    expect(isApiPath('/v1x')).toBe(false);
  });

  it('caches only names with a build hash', () => {
    expect(cacheControlOf('assets/app-Q2ZJ7K4M.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlOf('index.html')).toBe('no-cache');
    expect(cacheControlOf('assets/app-Q2ZJ7K4M.js.map')).toBe('no-cache');
  });

  it('says how to build when the assets are missing', async () => {
    const response = await serveDashboard(new Request('http://h/'), join(dir, 'nope'));
    expect(response?.status).toBe(503);
    expect(await response?.text()).toContain('npm run build');
  });
});
