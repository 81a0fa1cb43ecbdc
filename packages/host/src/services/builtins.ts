import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadManifest, readAssetFiles } from '@platform/manifest';
import { HttpError } from '../errors.js';
import type { FetchModule } from '../executor/index.js';
import { deploymentOf } from '../invocation/invoker.js';
import { assetHash, type IntegrationRecord } from '../storage/index.js';
import type { HostContext } from './context.js';
import { bundleHash, publish, RESERVED_INTEGRATION_NAMES } from './integrations.js';

/** The integrations shipped with the host, by package. Published, first-party, at every start. */
export const BUILTIN_PACKAGES = ['@platform/integration-webhook'] as const;

/** A built-in integration ready to run in-process. */
export interface Builtin {
  deploymentId: string;
  load(): Promise<FetchModule>;
}

/**
 * Publishes every built-in integration whose bundle changed since the last start (a new version),
 * and returns their in-process modules keyed by deployment id.
 *
 * @example
 * const builtins = await publishBuiltins(ctx);
 * new InProcessExecutor({ modules: Object.fromEntries(builtins.map((b) => [b.deploymentId, b.load])) });
 */
export async function publishBuiltins(ctx: HostContext): Promise<Builtin[]> {
  const require = createRequire(import.meta.url);
  const out: Builtin[] = [];
  for (const pkg of BUILTIN_PACKAGES) {
    const dir = dirname(require.resolve(`${pkg}/package.json`));
    const bundlePath = join(dir, 'dist', 'integration.js');
    const [manifest, bundle, pkgJson] = await Promise.all([
      readFile(join(dir, 'platform-manifest.yaml'), 'utf8'),
      readFile(bundlePath, 'utf8').catch(() => {
        throw new Error(`${pkg} is not built (${bundlePath} is missing): run "npm run build".`);
      }),
      readFile(join(dir, 'package.json'), 'utf8'),
    ]);
    const { version } = JSON.parse(pkgJson) as { version: string };
    // with its folder: the icon it names is checked like `platform check` does, then sent along
    const parsed = loadManifest(dir, { firstParty: true });
    if (!parsed.ok)
      throw new Error(`${pkg}: its platform-manifest.yaml is invalid: ${parsed.errors[0]?.message}`);
    if (!RESERVED_INTEGRATION_NAMES.has(parsed.manifest.name)) {
      throw new Error(
        `${pkg}: built-in "${parsed.manifest.name}" is missing from RESERVED_INTEGRATION_NAMES (services/integrations.ts), so the API would let anyone replace it.`,
      );
    }
    const assets = readAssetFiles(dir, parsed.manifest);
    const assetHashes = Object.fromEntries(
      Object.entries(assets).map(([path, data]) => [path, assetHash(Buffer.from(data, 'base64'))]),
    );
    const hash = bundleHash(bundle);
    // This build is what a stored version holds when bundle, manifest and images are all the same.
    const isThisBuild = (r: IntegrationRecord | null): r is IntegrationRecord =>
      r?.firstParty === true &&
      r.bundleHash === hash &&
      JSON.stringify(r.manifest) === JSON.stringify(parsed.manifest) &&
      JSON.stringify(r.assets ?? {}) === JSON.stringify(assetHashes);
    const latest = await ctx.storage.integrations.getLatest(parsed.manifest.name);
    let record = latest;
    if (!isThisBuild(record)) {
      const existing = await ctx.storage.integrations.getVersion(parsed.manifest.name, version);
      // A changed build of the same package version gets its own version (development of the host itself).
      const fingerprint = bundleHash(
        `${hash}\n${JSON.stringify(parsed.manifest)}\n${JSON.stringify(assetHashes)}`,
      );
      // A latest version that is not first-party (stored before built-in names were reserved) is
      // superseded by this build under a label of its own, so that this build becomes latest again.
      const label =
        latest !== null && !latest.firstParty && existing
          ? `${version}-${fingerprint.slice(0, 8)}-${Date.now().toString(36)}`
          : existing && !isThisBuild(existing)
            ? `${version}-${fingerprint.slice(0, 8)}`
            : version;
      try {
        record = await publish(ctx, {
          manifest,
          bundle,
          firstParty: true,
          builtin: true,
          version: label,
          assets,
        });
        ctx.logger.info(
          { integration: record.name, version: record.version },
          'published built-in integration',
        );
      } catch (error) {
        // Several hosts starting at once on one PostgreSQL: another one published this exact build first.
        const winner = await ctx.storage.integrations.getVersion(parsed.manifest.name, label);
        if (!(error instanceof HttpError && error.status === 409) || !isThisBuild(winner)) throw error;
        record = winner;
      }
    }
    out.push({
      deploymentId: deploymentOf(record).id,
      load: async () => (await import(pathToFileURL(bundlePath).href)).default as FetchModule,
    });
  }
  return out;
}
