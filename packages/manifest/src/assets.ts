import { imageSize } from 'image-size';

/** The two kinds of image files a manifest references: its `icon` and its `previewImages`. */
export type AssetRole = 'icon' | 'preview';

/** Largest asset file accepted (per file), in bytes: 4 MiB. */
export const MAX_ASSET_BYTES = 4 * 1024 * 1024;

const ICON_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  svg: 'image/svg+xml',
  webp: 'image/webp',
};
const PREVIEW_TYPES: Readonly<Record<string, string>> = { png: 'image/png', jpg: 'image/jpeg' };

/** An asset that may be used: its media type and pixel size, and what is worth a warning. */
export interface AssetInfo {
  contentType: string;
  width: number;
  height: number;
  /** Something to tell the author that does not make the file unusable (a preview not 2:1). */
  warning?: string;
}

function describeSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

/**
 * Checks the bytes of an icon or preview image: the file's own content decides its type (never its
 * name). Icons may be PNG, JPEG, SVG or WebP, previews PNG or JPEG; each file at most
 * {@link MAX_ASSET_BYTES}. `label` names the file in the messages.
 *
 * @example
 * const checked = checkAsset('icon', 'icon `assets/icon.svg`', bytes);
 * if ('error' in checked) throw new Error(checked.error);
 * checked.contentType; // 'image/svg+xml'
 */
export function checkAsset(role: AssetRole, label: string, bytes: Uint8Array): AssetInfo | { error: string } {
  if (bytes.byteLength > MAX_ASSET_BYTES) {
    return { error: `${label} is ${describeSize(bytes.byteLength)}; an image may be at most 4 MiB` };
  }
  let image: { width: number; height: number; type: string } | undefined;
  try {
    const size = imageSize(bytes);
    if (size.width !== undefined && size.height !== undefined && size.type !== undefined) {
      image = { width: size.width, height: size.height, type: size.type };
    }
  } catch {
    image = undefined;
  }
  const types = role === 'icon' ? ICON_TYPES : PREVIEW_TYPES;
  const contentType = image ? types[image.type] : undefined;
  if (role === 'icon') {
    if (!image || !contentType) return { error: `${label} must be a PNG, JPEG, SVG or WebP image` };
    return { contentType, width: image.width, height: image.height };
  }
  if (!image) return { error: `${label} is not a readable PNG or JPEG image` };
  if (!contentType) return { error: `${label} is a ${image.type.toUpperCase()} image; use PNG or JPEG` };
  return {
    contentType,
    width: image.width,
    height: image.height,
    ...(image.width !== image.height * 2
      ? { warning: `${label} is ${image.width}x${image.height}; use a 2:1 image (1600x800 recommended)` }
      : {}),
  };
}

/**
 * The image files a manifest references, by the path written in it: `icon` first, then each of
 * `previewImages`, without duplicates.
 *
 * @example
 * manifestAssets({ icon: 'icon.svg', previewImages: ['a.png'] }); // [['icon.svg','icon'], ['a.png','preview']]
 */
export function manifestAssets(manifest: {
  icon?: unknown;
  previewImages?: unknown;
}): Array<[path: string, role: AssetRole]> {
  const out = new Map<string, AssetRole>();
  if (typeof manifest.icon === 'string' && manifest.icon !== '') out.set(manifest.icon, 'icon');
  if (Array.isArray(manifest.previewImages)) {
    for (const p of manifest.previewImages) {
      if (typeof p === 'string' && p !== '' && !out.has(p)) out.set(p, 'preview');
    }
  }
  return [...out];
}
