import fc from 'fast-check';
import { expect, it } from 'vitest';
import { isStorageError } from '../errors.js';
import type { Storage } from '../storage.js';
import { type Ctx, installationInput, invocationLogInput, uid } from './fixtures.js';

/**
 * Numbers in storage (docs/contracts.md): every stored number is a safe integer, on both dialects alike. A
 * write given anything else (a fraction, NaN, an infinity, beyond ±2^53) is refused as `invalid` and changes
 * nothing; a write given any safe integer (negative, 0, past 32 bits, ±(2^53-1)) stores it exactly. SQLite
 * would store a fraction that PostgreSQL's BIGINT refuses: this is what made every retry fail there.
 */

/** Fractional, negative, huge and boundary values, and ordinary ones. */
const values = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    1.5,
    0.1,
    -0.5,
    1795473071782.3772,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 32,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    2 ** 53,
    -(2 ** 53),
    1e300,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ),
  fc.integer(),
  fc.double(),
  fc.maxSafeInteger(),
);

/** One storage write with a numeric input, and how to read that number back (undefined: nothing stored). */
interface NumericWrite {
  name: string;
  /** Prepares what the write needs; returns a context for `write` and `read`. */
  prepare(storage: Storage): Promise<string>;
  write(storage: Storage, key: string, value: number): Promise<unknown>;
  read(storage: Storage, key: string): Promise<number | undefined>;
  /** `read` gives the stored value itself (default true). */
  exact?: boolean;
}

/** A job leased to `lease` (inserted running, as a hand-over does), so that only this test's claim holds it. */
async function claimedJob(storage: Storage): Promise<string> {
  const { id: installationId } = await storage.installations.create(installationInput());
  const lease = { until: 10_000, token: 'lease' };
  const [job] = await storage.jobs.enqueue([{ kind: 'deliver', installationId, payload: {}, lease }]);
  return job?.id ?? '';
}

/** finishAttempt with one of its numbers set to `value`; reads that number back from the attempt log. */
function finishWith(field: 'startedAt' | 'durationMs' | 'statusCode' | 'runAt'): NumericWrite {
  return {
    name: `jobs.finishAttempt ${field}`,
    prepare: claimedJob,
    async write(storage, id, value) {
      const attempt = { series: 1, number: 1, startedAt: 2, durationMs: 3, statusCode: 503, [field]: value };
      return storage.jobs.finishAttempt(
        { id, leaseToken: 'lease' },
        attempt,
        { runAt: field === 'runAt' ? value : 5000, lastError: 'HTTP 503' },
        4,
      );
    },
    async read(storage, id) {
      const job = await storage.jobs.getJob(id);
      const attempt = job?.attempts[0];
      if (!job || !attempt) return undefined;
      return field === 'runAt' ? job.runAt : (attempt[field] ?? undefined);
    },
  };
}

const WRITES: readonly NumericWrite[] = [
  {
    name: 'jobs.enqueue runAt',
    prepare: async (storage) => (await storage.installations.create(installationInput())).id,
    write: (storage, installationId, value) =>
      storage.jobs.enqueue([
        { id: `dlv_${installationId}`, kind: 'deliver', installationId, payload: {}, runAt: value },
      ]),
    read: async (storage, installationId) => (await storage.jobs.getJob(`dlv_${installationId}`))?.runAt,
  },
  {
    name: 'jobs.enqueue lease.until',
    prepare: async (storage) => (await storage.installations.create(installationInput())).id,
    write: (storage, installationId, value) =>
      storage.jobs.enqueue([
        {
          id: `dlv_${installationId}`,
          kind: 'deliver',
          installationId,
          payload: {},
          lease: { until: value, token: 'lease' },
        },
      ]),
    read: async (storage, installationId) =>
      (await storage.jobs.getJob(`dlv_${installationId}`))?.leaseUntil ?? undefined,
  },
  finishWith('startedAt'),
  finishWith('durationMs'),
  finishWith('statusCode'),
  finishWith('runAt'),
  {
    name: 'events.insertIfAbsent receivedAt',
    prepare: async () => `evt_${uid()}`,
    write: (storage, eventId, value) =>
      storage.events.insertIfAbsent({ eventId, type: 't', payload: {}, receivedAt: value }),
    read: async (storage, eventId) => (await storage.events.get(eventId))?.receivedAt,
  },
  {
    name: 'invocationLogs.insert durationMs',
    prepare: async (storage) => (await storage.installations.create(installationInput())).id,
    write: (storage, installationId, value) =>
      storage.invocationLogs.insert(invocationLogInput(10, { installationId, durationMs: value })),
    read: async (storage, installationId) =>
      (await storage.invocationLogs.list(installationId))[0]?.durationMs,
  },
  {
    name: 'webhookSecrets.rotate overlapMs',
    prepare: async (storage) => {
      const { id } = await storage.installations.create(installationInput());
      await storage.webhookSecrets.set(id, 'whsec_a', 0);
      return id;
    },
    write: (storage, id, value) => storage.webhookSecrets.rotate(id, 'whsec_b', value, 0),
    // Not read back exactly: how many secrets are active at 0 (2 while the overlap runs, else 1).
    read: async (storage, id) => (await storage.webhookSecrets.active(id, 0)).length,
    exact: false,
  },
];

/** Registers the numbers contract: every write above, through random and boundary values. */
export function numbersContract(ctx: () => Ctx): void {
  for (const write of WRITES) {
    it(`numbers in storage: ${write.name} stores safe integers exactly and refuses anything else, changing nothing`, async () => {
      const { storage } = ctx();
      await fc.assert(
        fc.asyncProperty(values, async (value) => {
          const key = await write.prepare(storage);
          const before = await write.read(storage, key);
          const outcome = await write.write(storage, key, value).then(
            () => null,
            (error: unknown) => error,
          );
          if (Number.isSafeInteger(value)) {
            expect(outcome, `${write.name} = ${value}`).toBeNull();
            if (write.exact !== false) expect(await write.read(storage, key)).toBe(value === 0 ? 0 : value);
          } else {
            expect(isStorageError(outcome, 'invalid'), `${write.name} = ${value}: ${String(outcome)}`).toBe(
              true,
            );
            expect(await write.read(storage, key), `${write.name} = ${value} changed nothing`).toBe(before);
          }
        }),
        { numRuns: 25 },
      );
    });
  }
}
