import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';
import { startTestHost, type TestHost } from './helpers.js';

interface IntegrationView {
  name: string;
  version: string;
  iconUrl: string | null;
  previewImageUrls: string[];
}
interface ErrorAnswer {
  error: { code: string; message: string; details?: { errors: Array<{ path: string; message: string }> } };
}

const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="30"/></svg>';

/** The first bytes of a PNG of `width` x `height` (signature + IHDR): what the host reads its type and size from. */
function pngHead(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(
    bytes,
  );
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}

const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64');

function manifest(name: string, extra = 'icon: assets/icon.svg\npreviewImages:\n  - assets/preview.png\n') {
  return `name: ${name}\ntitle: ${name}\ndescription: test integration\norganization: test\nvisibility: private\nscopes: []\n${extra}`;
}
const bundle = 'export default { fetch() { return new Response("ok"); } };';

describe.each(BACKENDS)('%s', (backend) => {
  let t: TestHost;
  beforeAll(async () => {
    t = await startTestHost({}, backend);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('integration assets (icon and preview images)', () => {
    it('stores the uploaded icon and previews and serves them without a token, immutable and sandboxed', async () => {
      const preview = pngHead(1600, 800);
      const published = await t.api<IntegrationView>('POST', '/v1/integrations', {
        manifest: manifest('pictured'),
        bundle,
        assets: { 'assets/icon.svg': b64(ICON), 'assets/preview.png': b64(preview) },
      });
      expect(published.status, JSON.stringify(published.body)).toBe(201);
      const { iconUrl, previewImageUrls } = published.body;
      expect(iconUrl).toMatch(new RegExp(`^${t.host.url}/v1/assets/[0-9a-f]{64}$`));
      expect(previewImageUrls).toHaveLength(1);
      expect((await t.api<IntegrationView>('GET', '/v1/integrations/pictured')).body.iconUrl).toBe(iconUrl);

      const icon = await fetch(iconUrl ?? ''); // no Authorization header: an <img> sends none
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toBe('image/svg+xml');
      expect(await icon.text()).toBe(ICON);
      expect(icon.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(icon.headers.get('x-content-type-options')).toBe('nosniff');
      expect(icon.headers.get('content-security-policy')).toContain('sandbox');
      const again = await fetch(iconUrl ?? '', {
        headers: { 'if-none-match': icon.headers.get('etag') ?? '' },
      });
      expect(again.status).toBe(304);

      const png = await fetch(previewImageUrls[0] ?? '');
      expect(png.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await png.arrayBuffer()).equals(preview)).toBe(true);

      // the same icon in a later version is the same asset; a version without uploads shows none
      const v2 = await t.api<IntegrationView>('POST', '/v1/integrations', {
        manifest: manifest('pictured'),
        bundle,
        assets: { 'assets/icon.svg': b64(ICON) },
      });
      expect(v2.body.iconUrl).toBe(iconUrl);
      expect(v2.body.previewImageUrls).toEqual([]);
      const v3 = await t.api<IntegrationView>('POST', '/v1/integrations', {
        manifest: manifest('pictured'),
        bundle,
      });
      expect(v3.body).toMatchObject({ version: '3', iconUrl: null, previewImageUrls: [] });
      expect((await fetch(iconUrl ?? '')).status).toBe(200); // still served: version 1 refers to it
    });

    it('refuses bad uploads with every problem named by path, and publishes nothing', async () => {
      const bad = await t.api<ErrorAnswer>('POST', '/v1/integrations', {
        manifest: manifest('refused'),
        bundle,
        assets: {
          'assets/icon.svg': b64('hello, not an image'),
          'assets/preview.png': b64(Buffer.from('GIF89a\x0a\x00\x05\x00\x00\x00\x00', 'latin1')),
          'assets/other.png': b64(pngHead(10, 10)),
          'assets/../icon.svg': '!!!',
        },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('invalid_asset');
      expect(bad.body.error.message).toMatch(
        /^4 assets are invalid; first: icon `assets\/icon.svg` must be a PNG/,
      );
      expect(bad.body.error.details?.errors).toEqual([
        { path: 'assets/icon.svg', message: 'icon `assets/icon.svg` must be a PNG, JPEG, SVG or WebP image' },
        {
          path: 'assets/preview.png',
          message: 'preview image `assets/preview.png` is a GIF image; use PNG or JPEG',
        },
        {
          path: 'assets/other.png',
          message: expect.stringMatching(/not the manifest's icon or one of its previewImages/),
        },
        { path: 'assets/../icon.svg', message: expect.stringMatching(/not the manifest's icon/) },
      ]);
      expect((await t.api('GET', '/v1/integrations/refused')).status).toBe(404);

      const notBase64 = await t.api<ErrorAnswer>('POST', '/v1/integrations', {
        manifest: manifest('refused'),
        bundle,
        assets: { 'assets/icon.svg': 'PHN2Zz4=!' },
      });
      expect(notBase64.status).toBe(400);
      expect(notBase64.body.error.message).toBe(
        '"assets/icon.svg" is not base64: send the file\'s bytes base64-encoded',
      );

      const tooBig = await t.api<ErrorAnswer>('POST', '/v1/integrations', {
        manifest: manifest('refused'),
        bundle,
        assets: {
          'assets/preview.png': b64(Buffer.concat([pngHead(1600, 800), Buffer.alloc(4 * 1024 * 1024)])),
        },
      });
      expect(tooBig.status).toBe(400);
      expect(tooBig.body.error.message).toMatch(/is 4.0 MiB; an image may be at most 4 MiB/);
      expect((await t.api('GET', '/v1/integrations/refused')).status).toBe(404);
    });

    it("gives the integration its uploaded icon's URL as `environment.integration.urls.icon`", async () => {
      // Answers, from its public endpoint, the `integration.urls` of the environment it got.
      const echo = `export default { async fetch(request) {
        const env = JSON.parse((await request.formData()).get('environment'));
        return new Response(JSON.stringify(env.integration.urls), { headers: { 'content-type': 'application/json' } });
      } };`;
      const urlsOf = async (name: string, assets?: Record<string, string>) => {
        const published = await t.api<IntegrationView>('POST', '/v1/integrations', {
          manifest: manifest(name, 'icon: assets/icon.svg\n'),
          bundle: echo,
          ...(assets ? { assets } : {}),
        });
        expect(published.status, JSON.stringify(published.body)).toBe(201);
        const installed = await t.api<{ id: string }>('POST', '/v1/installations', { integration: name });
        const res = await fetch(
          `${t.host.url}/v1/integrations/${name}/installations/${installed.body.id}/public`,
        );
        expect(res.status).toBe(200);
        return {
          urls: (await res.json()) as { publicEndpoint: string; icon?: string },
          iconUrl: published.body.iconUrl,
        };
      };
      const withIcon = await urlsOf('iconic', { 'assets/icon.svg': b64(ICON) });
      expect(withIcon.urls.icon).toBe(withIcon.iconUrl);
      expect(await (await fetch(withIcon.urls.icon ?? '')).text()).toBe(ICON);
      // Not uploaded (the manifest names it, the publish sent no file): no `icon`.
      const without = await urlsOf('iconless');
      expect(without.urls).toEqual({
        publicEndpoint: expect.stringContaining('/iconless/installations/'),
        publicContentEndpoint: expect.stringContaining('/iconless/installations/'),
      });
    });

    it('answers a malformed asset id with 400 and an unknown one with 404; other routes still need a token', async () => {
      const malformed = await fetch(`${t.host.url}/v1/assets/not-a-hash`);
      expect(malformed.status).toBe(400);
      expect(((await malformed.json()) as ErrorAnswer).error.message).toMatch(/64 lowercase hex characters/);
      expect((await fetch(`${t.host.url}/v1/assets/${'0'.repeat(64)}`)).status).toBe(404);
      expect((await fetch(`${t.host.url}/v1/integrations`)).status).toBe(401);
    });
  });
});
