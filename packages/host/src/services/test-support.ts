import { pino } from 'pino';
import { installationTokens } from '../auth.js';
import { loadConfig } from '../config.js';
import { parseAllowPrivateTargets } from '../net/index.js';
import type { InstallationRecord, Storage } from '../storage/index.js';
import { publishBuiltins } from './builtins.js';
import type { HostContext } from './context.js';

/**
 * A host context on a real storage for service tests, with the built-in integrations published:
 * silent logger, loopback allowed, workers not running (`notify` does nothing unless overridden).
 *
 * @example
 * const ctx = await testContext(dir, storage, { notify: { deliveries: () => wakeUps++, invocations: () => {} } });
 */
export async function testContext(
  dataDir: string,
  storage: Storage,
  overrides: Partial<Pick<HostContext, 'notify' | 'handOff'>> = {},
): Promise<HostContext> {
  const ctx: HostContext = {
    config: loadConfig({ PLATFORM_DATA_DIR: dataDir }),
    storage,
    logger: pino({ level: 'silent' }),
    policy: parseAllowPrivateTargets('1'),
    tokens: installationTokens('test-key'),
    baseUrl: () => 'http://127.0.0.1:1',
    notify: { deliveries: () => undefined, invocations: () => undefined },
    ...overrides,
  };
  await publishBuiltins(ctx);
  return ctx;
}

/**
 * An active webhook installation in space `spaceId` that selected `space_content_updated`.
 *
 * @example
 * const installation = await installSpaceWebhook(storage, 'sp1');
 */
export function installSpaceWebhook(
  storage: Storage,
  spaceId: string,
  url = 'https://example.com/hook',
): Promise<InstallationRecord> {
  return storage.installations.create({
    integrationName: 'webhook',
    target: 'space',
    spaceId,
    configuration: { url, space_content_updated: true },
    status: 'active',
    tokenHash: `unused-${url}`,
  });
}
