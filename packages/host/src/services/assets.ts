import { checkAsset, type Manifest, manifestAssets } from '@platform/manifest';
import { HttpError } from '../errors.js';

/** An uploaded image file, checked: the path the manifest gives it, its media type and bytes. */
export interface CheckedAsset {
  path: string;
  contentType: string;
  data: Buffer;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Checks the image files sent with a publish (`assets`: manifest path -> base64 bytes): each must be
 * the manifest's `icon` or one of its `previewImages`, valid base64, and an image of a type that
 * place allows, at most 4 MiB (the rules `platform check` applies to the files on disk). Every
 * problem is reported at once, in a 400 `invalid_asset` whose `details.errors` name the path.
 * Images the manifest names but the request does not carry are simply absent (shown as a monogram).
 *
 * @example
 * const assets = checkAssets(manifest, { 'assets/icon.svg': 'PHN2ZyB4bWxucz0i…' });
 */
export function checkAssets(manifest: Manifest, assets: Record<string, string> | undefined): CheckedAsset[] {
  if (!assets) return [];
  const roles = new Map(manifestAssets(manifest));
  const errors: Array<{ path: string; message: string }> = [];
  const out: CheckedAsset[] = [];
  for (const [path, encoded] of Object.entries(assets)) {
    const role = roles.get(path);
    if (!role) {
      errors.push({
        path,
        message: `"${path}" is not the manifest's icon or one of its previewImages; send only the files the manifest names, under the path it gives them`,
      });
      continue;
    }
    const text = encoded.replace(/\s+/g, '');
    if (text.length % 4 !== 0 || !BASE64.test(text)) {
      errors.push({ path, message: `"${path}" is not base64: send the file's bytes base64-encoded` });
      continue;
    }
    const data = Buffer.from(text, 'base64');
    const label = role === 'icon' ? `icon \`${path}\`` : `preview image \`${path}\``;
    const checked = checkAsset(role, label, data);
    if ('error' in checked) errors.push({ path, message: checked.error });
    else out.push({ path, contentType: checked.contentType, data });
  }
  if (errors.length === 1) throw new HttpError(400, 'invalid_asset', errors[0]?.message ?? '', { errors });
  if (errors.length > 1) {
    throw new HttpError(
      400,
      'invalid_asset',
      `${errors.length} assets are invalid; first: ${errors[0]?.message}`,
      {
        errors,
      },
    );
  }
  return out;
}
