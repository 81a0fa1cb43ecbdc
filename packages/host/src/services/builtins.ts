import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseManifest } from '@platform/manifest';
import { HttpError } from '../errors.js';
import type { FetchModule } from '../executor/index.js';
import type { HostContext } from './context.js';
import { bundleHash, publish } from './integrations.js';
import { deploymentOf } from './invoker.js';

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
    const parsed = parseManifest(manifest, { firstParty: true });
    if (!parsed.ok)
      throw new Error(`${pkg}: its platform-manifest.yaml is invalid: ${parsed.errors[0]?.message}`);
    let record = await ctx.storage.integrations.getLatest(parsed.manifest.name);
    const hash = bundleHash(bundle);
    if (
      !record ||
      record.bundleHash !== hash ||
      JSON.stringify(record.manifest) !== JSON.stringify(parsed.manifest)
    ) {
      const existing = await ctx.storage.integrations.getVersion(parsed.manifest.name, version);
      // A changed build of the same package version gets its own version (development of the host itself).
      const label = existing && existing.bundleHash !== hash ? `${version}-${hash.slice(0, 8)}` : version;
      try {
        record = await publish(ctx, { manifest, bundle, firstParty: true, version: label });
        ctx.logger.info(
          { integration: record.name, version: record.version },
          'published built-in integration',
        );
      } catch (error) {
        // Several hosts starting at once on one PostgreSQL: another one published this exact build first.
        const winner = await ctx.storage.integrations.getVersion(parsed.manifest.name, label);
        if (!(error instanceof HttpError && error.status === 409) || winner?.bundleHash !== hash) throw error;
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
