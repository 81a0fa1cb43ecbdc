import { afterEach, beforeEach, describe } from 'vitest';
import { accessTokensContract } from './access-tokens.contract.js';
import { auditContract } from './audit.contract.js';
import { deliveryStatsContract } from './delivery-stats.contract.js';
import { documentsContract } from './documents.contract.js';
import { eventsContract } from './events.contract.js';
import type { Backend, Ctx } from './fixtures.js';
import { installationsContract } from './installations.contract.js';
import { integrationsContract } from './integrations.contract.js';
import { miscContract } from './misc.contract.js';
import { numbersContract } from './numbers.contract.js';
import { organizationsContract } from './organizations.contract.js';
import { queueContract } from './queue.contract.js';
import { queueConcurrencyContract } from './queue-concurrency.contract.js';
import { queueFinishContract } from './queue-finish.contract.js';
import { queueHeldContract } from './queue-held.contract.js';
import { retentionContract } from './retention.contract.js';
import { secretsContract } from './secrets.contract.js';

export type { Backend, Ctx, TestDatabase } from './fixtures.js';

/**
 * Registers the whole storage contract suite for one backend.
 *
 * @example
 * defineStorageContract('sqlite', { create: async () => ({ open, dispose }) });
 */
export function defineStorageContract(name: string, backend: Backend): void {
  describe(`storage contract: ${name}`, () => {
    let current: Ctx | undefined;
    beforeEach(async () => {
      const db = await backend.create();
      current = { db, storage: await db.open() };
    });
    afterEach(async () => {
      await current?.db.dispose();
      current = undefined;
    });
    const ctx = (): Ctx => {
      if (!current) throw new Error('no test database');
      return current;
    };
    integrationsContract(ctx);
    installationsContract(ctx);
    eventsContract(ctx);
    queueContract(ctx);
    queueHeldContract(ctx);
    queueConcurrencyContract(ctx);
    queueFinishContract(ctx);
    miscContract(ctx);
    retentionContract(ctx);
    numbersContract(ctx);
    documentsContract(ctx);
    organizationsContract(ctx);
    accessTokensContract(ctx);
    auditContract(ctx);
    deliveryStatsContract(ctx);
    secretsContract(ctx);
  });
}
