/**
 * Base class of the errors this package throws; `code` is stable.
 *
 * @example
 * ```ts
 * if (err instanceof ManifestError && err.code === 'manifest_not_found') { ... }
 * ```
 */
export class ManifestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * `loadManifest` found no folder or no `platform-manifest.yaml` in it.
 *
 * @example
 * ```ts
 * try { loadManifest('./nope'); } catch (e) { if (e instanceof ManifestNotFoundError) console.error(e.message); }
 * ```
 */
export class ManifestNotFoundError extends ManifestError {
  constructor(
    readonly file: string,
    reason: 'no_folder' | 'no_file',
  ) {
    super(
      'manifest_not_found',
      reason === 'no_folder'
        ? `folder not found: ${file}; pass the folder that contains platform-manifest.yaml`
        : `no platform-manifest.yaml in ${file}; create one or pass the folder that contains it`,
    );
  }
}

/**
 * `resolveSecrets` needs environment variables that are not set. Lists every one of them; never
 * contains a secret value.
 *
 * @example
 * ```ts
 * try { resolveSecrets(manifest, {}); } catch (e) { if (e instanceof MissingSecretEnvError) e.missing; }
 * ```
 */
export class MissingSecretEnvError extends ManifestError {
  constructor(readonly missing: readonly string[]) {
    const refs = missing.filter((m) => m.includes('://'));
    const names = missing.filter((m) => !m.includes('://'));
    const parts = [
      ...(names.length
        ? [
            `missing environment variable${names.length === 1 ? '' : 's'} for manifest secrets: ${names.join(', ')}`,
          ]
        : []),
      ...(refs.length
        ? [
            `unresolved secret-manager reference${refs.length === 1 ? '' : 's'}: ${refs.join(', ')} (platform publish resolves them from --secrets <file> or .secrets.json)`,
          ]
        : []),
    ];
    super(
      'missing_secret_env',
      `${parts.join('; ')}; set ${missing.length === 1 ? 'it' : 'them'} before starting the integration`,
    );
  }
}

/**
 * A secret value has a malformed `${{ ... }}` expression (only possible on an unvalidated manifest).
 *
 * @example
 * ```ts
 * err.secret; // name of the secret, never its value
 * ```
 */
export class InvalidSecretExpressionError extends ManifestError {
  constructor(readonly secret: string) {
    super(
      'invalid_secret_expression',
      `secret \`${secret}\` has a malformed expression; write \`\${{ env.NAME }}\``,
    );
  }
}
