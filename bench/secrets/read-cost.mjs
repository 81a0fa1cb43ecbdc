// `node bench/secrets/read-cost.mjs`: what encryption at rest costs (docs/benchmarks.md "Secrets at rest").
// (1) one `seal` and one `open` of a webhook secret (AES-256-GCM, node:crypto); (2) the delivery path's
// only read of secrets, `webhookSecrets.deliveryTarget` (an installation's URL and its two secrets during
// a rotation), on a real SQLite file (and PostgreSQL when DATABASE_URL is set), from a storage that seals
// (host) and one that does not (as before), alternating. The delivery thread does this read once per
// installation and routing epoch (delivery/host/targets.ts), not per delivery. Prints; asserts nothing.
//
//   node bench/secrets/read-cost.mjs [--reads=5000] [--rounds=4]
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, importHostInternals } from '../host-internals.mjs';

// The storage layer and the box are internal (not exports of @platform/host): bundled from source here.
const { openStorage, createSecretBox, generateKey } = await importHostInternals(
  'secrets-storage',
  `export { openStorage } from './storage/index.ts'; export { createSecretBox, generateKey } from './secrets/index.ts';`,
);

const reads = Number(arg('reads', '5000'));
const rounds = Number(arg('rounds', '4'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// (1) the box alone
const key = generateKey();
const box = createSecretBox({ current: key });
const secret = `whsec_${randomBytes(32).toString('base64url')}`;
const sealed = box.seal(secret);
const perCall = (fn, n = 100_000) => {
  for (let i = 0; i < 1000; i++) fn();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - t0) / n / 1000;
};
// A first open decrypts; the box remembers what it opened (by sealed text), so a second open of the
// same value is a map lookup. First opens: 1 000 distinct values, each opened once by a fresh box.
const distinct = Array.from({ length: 1000 }, (_, i) => box.seal(`${secret}${i}`));
const coldOpen = () => {
  const fresh = createSecretBox({ current: key });
  const t0 = process.hrtime.bigint();
  for (const value of distinct) fresh.open(value);
  return Number(process.hrtime.bigint() - t0) / distinct.length / 1000;
};
const sealUs = [];
const openUs = [];
const coldUs = [];
for (let r = 0; r < rounds; r++) {
  sealUs.push(perCall(() => box.seal(secret)));
  openUs.push(perCall(() => box.open(sealed)));
  coldUs.push(median(Array.from({ length: 20 }, coldOpen)));
}
console.log(
  `seal: ${median(sealUs).toFixed(2)} µs/call, first open: ${median(coldUs).toFixed(2)} µs/call, open again: ${median(openUs).toFixed(2)} µs/call (medians of ${rounds} rounds)`,
);

// (2) the delivery target read, sealed vs plain
async function backend(label, options) {
  const key = generateKey();
  const stores = {
    plain: await openStorage(options('plain')),
    sealed: await openStorage({ ...options('sealed'), secrets: { current: key } }),
  };
  const ids = {};
  for (const [name, storage] of Object.entries(stores)) {
    const inst = await storage.installations.create({
      integrationName: 'webhook',
      target: 'space',
      spaceId: 'sp',
      tokenHash: `h_${name}_${randomBytes(4).toString('hex')}`,
      configuration: { url: 'https://hooks.example.com/in', space_content_updated: true },
    });
    await storage.webhookSecrets.set(inst.id, `whsec_${randomBytes(32).toString('base64url')}`);
    await storage.webhookSecrets.rotate(inst.id, secret, 3600_000, Date.now());
    ids[name] = inst.id;
  }
  const results = { plain: [], sealed: [] };
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 === 0 ? ['plain', 'sealed'] : ['sealed', 'plain']) {
      const storage = stores[name];
      for (let i = 0; i < 200; i++) await storage.webhookSecrets.deliveryTarget(ids[name], Date.now());
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < reads; i++) {
        const target = await storage.webhookSecrets.deliveryTarget(ids[name], Date.now());
        if (target.secrets[0] !== secret) throw new Error('wrong secret read');
      }
      results[name].push(Number(process.hrtime.bigint() - t0) / reads / 1000);
    }
  }
  for (const name of ['plain', 'sealed']) {
    console.log(
      `${label} deliveryTarget, ${name}: ${median(results[name]).toFixed(1)} µs/read (rounds: ${results[name].map((x) => x.toFixed(1)).join(', ')})`,
    );
  }
  await Promise.all(Object.values(stores).map((s) => s.close()));
}

const dir = await mkdtemp(join(tmpdir(), 'platform-bench-secrets-'));
try {
  await backend('SQLite', (name) => ({ sqlitePath: join(dir, `${name}.db`) }));
  if (process.env.DATABASE_URL) {
    await backend('PostgreSQL', (name) => ({
      databaseUrl: process.env.DATABASE_URL,
      schema: `bench_secrets_${name}_${randomBytes(3).toString('hex')}`,
    }));
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
