// `npm run bench:queue:slow-backlog`: what a slow installation's backlog costs everyone else's claims.
// A webhook endpoint that hangs is held to its fair share; meanwhile its new deliveries pile up. Each
// claim of the delivery engine then looks for due work of the OTHER installations. This measures one
// claim (16 jobs of a healthy installation) with a backlog of B deliveries of a slow installation, on a
// real SQLite file (and PostgreSQL when DATABASE_URL is set), stored `queued` (as before the host held
// them: every claim scans past them) and `held` (as the host stores a slow endpoint's new deliveries
// now). Prints; asserts nothing.
//
//   node bench/queue/slow-backlog.mjs [--backlogs=0,10000,100000] [--claims=200]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, importHostInternals } from '../host-internals.mjs';

// The host's storage layer is internal (not an export of @platform/host): bundled from source here.
const { openStorage } = await importHostInternals(
  'storage',
  "export { openStorage } from './storage/index.ts';",
);

const backlogs = arg('backlogs', '0,10000,100000').split(',').map(Number);
const claims = Number(arg('claims', '200'));

async function measure(label, open) {
  for (const hold of [false, true])
    for (const backlog of backlogs) {
      const { storage, close } = await open();
      const slow = await storage.installations.create({
        integrationName: 'webhook',
        target: 'space',
        spaceId: 'slow',
        status: 'active',
        tokenHash: 'h1',
      });
      const healthy = await storage.installations.create({
        integrationName: 'webhook',
        target: 'space',
        spaceId: 'ok',
        status: 'active',
        tokenHash: 'h2',
      });
      const t0 = Date.now() - 3_600_000;
      // the slow installation's backlog: older than anything the healthy one gets
      for (let i = 0; i < backlog; i += 1000) {
        const n = Math.min(1000, backlog - i);
        await storage.jobs.enqueue(
          Array.from({ length: n }, () => ({ kind: 'deliver', installationId: slow.id, payload: {}, hold })),
          t0 + i,
        );
      }
      const times = [];
      for (let c = 0; c < claims; c++) {
        await storage.jobs.enqueue(
          Array.from({ length: 16 }, () => ({ kind: 'deliver', installationId: healthy.id, payload: {} })),
        );
        const started = performance.now();
        const got = await storage.jobs.claim({
          kinds: ['deliver'],
          limit: 16,
          leaseMs: 30_000,
          now: Date.now(),
          perInstallation: new Map([[slow.id, 0]]),
        });
        times.push(performance.now() - started);
        if (got.length !== 16 || got.some((j) => j.installationId !== healthy.id))
          throw new Error('bad claim');
        await storage.jobs.finishAttempts(
          got.map((job) => ({
            job,
            attempt: {
              series: 1,
              number: 1,
              startedAt: Date.now(),
              durationMs: 1,
              statusCode: 200,
              error: null,
              responseExcerpt: null,
            },
            outcome: { state: 'succeeded' },
          })),
          Date.now(),
        );
      }
      times.sort((a, b) => a - b);
      const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(2);
      console.log(
        `${label}  backlog ${String(backlog).padStart(7)} ${hold ? 'held  ' : 'queued'}  claim p50 ${q(0.5)} ms  p99 ${q(0.99)} ms`,
      );
      await close();
    }
}

await measure('sqlite  ', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'slow-backlog-'));
  const storage = await openStorage({ sqlitePath: join(dir, 'p.db') });
  return {
    storage,
    close: async () => {
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
if (process.env.DATABASE_URL) {
  await measure('postgres', async () => {
    const schema = `bench_${Math.random().toString(36).slice(2, 10)}`;
    const storage = await openStorage({ databaseUrl: process.env.DATABASE_URL, schema });
    const { default: pg } = await import('pg');
    return {
      storage,
      close: async () => {
        await storage.close();
        const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await admin.connect();
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.end();
      },
    };
  });
}
