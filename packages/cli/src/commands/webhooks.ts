import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { connect, printJson, withHostOptions } from './shared.js';

/**
 * Registers `platform webhooks public-key <installationId>`: the ed25519 public key (`whpk_…`) that verifies
 * the installation's `webhook-signature` `v1a` entries (`GET /v1/installations/{id}/webhook-public-key`).
 *
 * @example
 * ```ts
 * registerWebhooks(program, context); // platform webhooks public-key inst_1
 * ```
 */
export function registerWebhooks(program: Command, context: CommandContext): void {
  const webhooks = program
    .command('webhooks')
    .description("a webhook installation's signing keys")
    .addHelpText(
      'after',
      `
An installation whose signature_scheme is ed25519 signs with its own key pair: receivers verify with the
public key alone (docs/receivers.md). Switch a webhook to it with
  platform configure signature_scheme=ed25519 --installation <installationId>

Examples:
  $ platform webhooks public-key inst_4f2a9c`,
    );

  withHostOptions(
    webhooks
      .command('public-key')
      .description('print the ed25519 public key (whpk_…) of a webhook installation')
      .argument('<installationId>', 'the webhook installation')
      .option('--rotate', 'make a new key pair first; the previous one keeps signing for 24 hours')
      .option('--json', 'print {"algorithm", "publicKey", "scheme", "createdAt", "previous"?} as JSON'),
  )
    .addHelpText(
      'after',
      `
Prints the key alone on stdout (pipe it into your receiver's configuration); its scheme and age on stderr.

Examples:
  $ platform webhooks public-key inst_4f2a9c
  $ platform webhooks public-key inst_4f2a9c --rotate
  $ platform webhooks public-key inst_4f2a9c --json`,
    )
    .action(
      async (
        installationId: string,
        options: { rotate?: boolean; json?: boolean; url?: string; token?: string },
      ) => {
        const host = connect(context, options);
        const params = { id: installationId };
        const key = options.rotate
          ? await host.call('POST /v1/installations/{id}/webhook-public-key/rotate', { params })
          : await host.call('GET /v1/installations/{id}/webhook-public-key', { params });
        if (options.json) return printJson(context, key);
        context.io.stdout(`${key.publicKey}\n`);
        const note =
          key.scheme === 'ed25519'
            ? 'signs webhook-signature v1a entries now'
            : `not in use: the installation signs with ${key.scheme} (set signature_scheme=ed25519)`;
        const previous = key.previous
          ? `; the previous key ${key.previous.publicKey} also signs until ${key.previous.expiresAt}: give receivers the new one before then`
          : '';
        context.io.stderr(
          `ed25519 public key of ${installationId}, made ${key.createdAt}; ${note}${previous}\n`,
        );
      },
    );
}
