import { createHash } from 'node:crypto';
import { type Manifest, ManifestError, parseManifest, resolveSecrets } from '@platform/manifest';
import type { Principal } from '../access/principal.js';
import { randomToken } from '../auth.js';
import { badRequest, HttpError } from '../errors.js';
import { type IntegrationRecord, isStorageError } from '../storage/index.js';
import { assetUrl, integrationIconUrl } from '../urls.js';
import { checkAssets } from './assets.js';
import { type HostContext, WEBHOOK_INTEGRATION } from './context.js';

export { assetUrl, integrationIconUrl } from '../urls.js';

/** What `publish` takes: the manifest text and the built bundle. */
export interface PublishInput {
  manifest: string;
  bundle: string;
  /** Version label; default: the next whole number (`"1"`, `"2"`, ...), or `"dev"` in dev mode. */
  version?: string;
  /** Development mode: the same version can be published again, replacing the bundle. */
  dev?: boolean;
  /** Values for `${{ env.NAME }}` expressions of the manifest `secrets`. */
  env?: Record<string, string>;
  /** The manifest's image files (`icon`, `previewImages`): path as the manifest gives it -> base64 bytes. */
  assets?: Record<string, string>;
  /**
   * Grants the internal scopes: the host to the integrations bundled with it, or the operator who
   * publishes (`firstParty: true` of `POST /v1/integrations`; docs/security.md "First-party integrations").
   */
  firstParty?: boolean;
  /** The host publishing its own built-in integrations: only then may a reserved name be used. */
  builtin?: boolean;
}

/**
 * Names of the integrations shipped with the host (`BUILTIN_PACKAGES` in builtins.ts): nobody can publish
 * or replace them through the API; the host republishes them from its own files at every start. See
 * docs/security.md "Built-in integrations".
 */
export const RESERVED_INTEGRATION_NAMES: ReadonlySet<string> = new Set([WEBHOOK_INTEGRATION]);

/** The 409 of a publish that would take a built-in integration's name. */
export function reservedName(name: string): HttpError {
  return new HttpError(
    409,
    'reserved_name',
    `"${name}" is the name of an integration built into the host; it cannot be published or replaced through the API. Choose another name.`,
    { name },
  );
}

/** The organization that owns an integration: its manifest's `organization`. */
export function ownerOfIntegration(record: Pick<IntegrationRecord, 'manifest'>): string | null {
  const organization = (record.manifest as Manifest).organization;
  return organization ? String(organization) : null;
}

/** The content hash that identifies a bundle (and so a deployment) across publishes. */
export function bundleHash(bundle: string): string {
  return createHash('sha256').update(bundle).digest('hex');
}

/**
 * How an integration looks through the API (no bundle, no secrets), with the URLs of its uploaded
 * icon and preview images (null / left out when not uploaded).
 */
export function integrationView(ctx: Pick<HostContext, 'baseUrl'>, record: IntegrationRecord) {
  const manifest = record.manifest as Manifest;
  const assets = record.assets ?? {};
  return {
    name: record.name,
    version: record.version,
    title: record.title,
    description: manifest.description,
    visibility: manifest.visibility,
    scopes: [...manifest.scopes],
    firstParty: record.firstParty,
    iconUrl: integrationIconUrl(ctx, record),
    previewImageUrls: (manifest.previewImages ?? []).flatMap((path) => {
      const hash = assets[path];
      return hash ? [assetUrl(ctx, hash)] : [];
    }),
    manifest: {
      ...record.manifest,
      secrets: Object.fromEntries(Object.keys(manifest.secrets ?? {}).map((k) => [k, '***'])),
    },
    createdAt: new Date(record.createdAt).toISOString(),
  };
}

/**
 * Publishes a version of an integration: validates the manifest (every problem reported at once,
 * with line and column), resolves its secrets, and stores manifest + bundle. The signing secret is
 * kept across versions so an integration hosted elsewhere keeps verifying envelopes.
 *
 * @example
 * await publish(ctx, { manifest: yamlText, bundle: esmSource });
 */
export async function publish(
  ctx: HostContext,
  input: PublishInput,
  principal: Principal = { kind: 'operator' },
): Promise<IntegrationRecord> {
  const parsed = parseManifest(input.manifest, {
    firstParty: input.firstParty === true,
    fileName: 'platform-manifest.yaml',
  });
  if (!parsed.ok) {
    const first = parsed.errors[0];
    throw new HttpError(
      400,
      'invalid_manifest',
      `platform-manifest.yaml has ${parsed.errors.length} error${parsed.errors.length === 1 ? '' : 's'}` +
        (first
          ? `; first: ${first.line}:${first.column} ${first.path ? `${first.path}: ` : ''}${first.message}`
          : ''),
      { errors: parsed.errors },
    );
  }
  const manifest = parsed.manifest;
  if (principal.kind === 'organization') {
    // an organization publishes as itself: a missing `organization` is its own, another one is refused
    if (manifest.organization && manifest.organization !== principal.organizationId) {
      throw new HttpError(
        403,
        'wrong_organization',
        `platform-manifest.yaml names organization "${manifest.organization}", but this token belongs to organization "${principal.organizationId}": an organization publishes only its own integrations. Set \`organization: ${principal.organizationId}\` (or leave it out), or publish with a token of "${manifest.organization}".`,
      );
    }
    manifest.organization = principal.organizationId;
    if (input.firstParty === true) {
      throw new HttpError(403, 'forbidden', "`firstParty` is the operator's to grant; publish without it.");
    }
  }
  if (!manifest.organization) {
    // optional in the file, required here (packages/manifest/README.md "Optional keys")
    throw new HttpError(
      400,
      'invalid_manifest',
      'platform-manifest.yaml has no `organization`; a published integration needs its owning organization: set `organization` in the manifest, or publish with `platform publish --organization <id>` (or `--env <name>` with `envs.<name>.organization`).',
      {
        errors: [
          {
            path: 'organization',
            line: 1,
            column: 1,
            message: 'missing required key `organization`',
            severity: 'error',
          },
        ],
      },
    );
  }
  if (input.builtin !== true && RESERVED_INTEGRATION_NAMES.has(manifest.name.toLowerCase())) {
    throw reservedName(manifest.name);
  }
  let secrets: Record<string, string>;
  try {
    secrets = resolveSecrets(manifest, input.env ?? {});
  } catch (error) {
    if (error instanceof ManifestError) throw badRequest(error.message);
    throw error;
  }
  if (input.version !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(input.version)) {
    throw badRequest('version must be 1-64 letters, digits, dots, dashes or underscores, e.g. "1.2.0".');
  }
  const assets = checkAssets(manifest, input.assets);
  const previous = await ctx.storage.integrations.listVersions(manifest.name);
  const owner = (previous[0]?.manifest as Manifest | undefined)?.organization;
  if (principal.kind === 'organization' && owner !== undefined && owner !== principal.organizationId) {
    throw new HttpError(
      409,
      'name_taken',
      `The integration name "${manifest.name}" is taken by another organization; names are unique across the host. Choose another \`name\`.`,
    );
  }
  const version = input.version ?? (input.dev ? 'dev' : String(previous.length + 1));
  try {
    // the files and the version that names them commit together: no version points at a missing file
    return await ctx.storage.transaction(async (tx) => {
      await tx.organizations.ensure(String(manifest.organization));
      const hashes: Record<string, string> = {};
      for (const asset of assets) hashes[asset.path] = await tx.assets.put(asset);
      return tx.integrations.publish({
        name: manifest.name,
        version,
        title: manifest.title,
        manifest: manifest as unknown as Record<string, unknown>,
        bundle: input.bundle,
        bundleHash: bundleHash(input.bundle),
        envelopeVersion: 'v1',
        signingSecret: previous[0]?.signingSecret ?? randomToken('pss_'),
        secrets,
        firstParty: input.firstParty === true,
        devMode: input.dev === true,
        assets: hashes,
      });
    });
  } catch (error) {
    if (isStorageError(error) && error.code === 'conflict') {
      throw new HttpError(
        409,
        'version_exists',
        `${manifest.name} version ${version} is already published; publish a new version (or use dev mode).`,
      );
    }
    throw error;
  }
}
