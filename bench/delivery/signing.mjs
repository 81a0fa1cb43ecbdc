// `npm run bench:signing`: what signing one delivery attempt costs, per signature scheme (docs/contracts.md
// "Signature schemes of webhook installations"), with the functions the host's sender calls
// (@platform/webhooks `sign` and `signStandard`, node:crypto inside), on an event body of the usual size and
// on a 16 KiB one. Single thread, in process; prints a table (µs per signature, median of 7 runs of N
// signatures each, the schemes alternating, after a warm-up) and asserts nothing. The host-level figure (CPU per delivery with each
// scheme) is `npm run bench:delivery:ab -- --variant=platform: --variant=ed25519:scheme=ed25519`.
//
//   npm run build && node bench/delivery/signing.mjs [--signatures=20000]
import { generateSecret, generateSigningKeyPair, sign, signStandard } from '@platform/webhooks';

const count = Number(process.argv.find((a) => a.startsWith('--signatures='))?.split('=')[1] ?? '20000');
const secret = generateSecret();
const { privateKey } = await generateSigningKeyPair();
// The same key for Web Crypto (the path of runtimes without node:crypto): PKCS #8 header + the 32-byte seed.
const der = Buffer.concat([
  Buffer.from('302e020100300506032b657004220420', 'hex'),
  Buffer.from(privateKey.slice('whsk_'.length), 'base64'),
]);
const webKey = await crypto.subtle.importKey('pkcs8', der, { name: 'Ed25519' }, false, ['sign']);

const event = JSON.stringify({
  type: 'page_feedback',
  eventId: 'evt_01JDZ8Q7K3M4N5P6Q7R8S9T0UV',
  siteId: 'site_3f9a1c',
  pageId: 'page_getting-started',
  rating: 'bad',
  comment: 'The install command fails on Windows; the guide should say to use PowerShell.',
  visitor: { anonymousId: 'anon_7d2e', country: 'DE', language: 'de-DE' },
  createdAt: '2026-11-27T01:10:00.000Z',
});
const bodies = { [`event (${event.length} B)`]: Buffer.from(event), '16 KiB': Buffer.alloc(16 * 1024, 'x') };

const schemes = {
  platform: (body, t) => sign(body, [secret], { timestamp: t }),
  'standard-webhooks': (body, t) => signStandard(body, { id: 'evt_1', timestamp: t, secrets: [secret] }),
  'ed25519 (node:crypto)': (body, t) =>
    signStandard(body, { id: 'evt_1', timestamp: t, privateKeys: [privateKey] }),
  'ed25519 (Web Crypto)': (body, t) =>
    crypto.subtle.sign('Ed25519', webKey, Buffer.concat([Buffer.from(`evt_1.${t}.`), body])),
};

async function microsPerSignature(fn, body, n) {
  const t = Math.floor(Date.now() / 1000);
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn(body, t);
  return Number(process.hrtime.bigint() - start) / 1000 / n;
}

// Rounds alternate the schemes (this machine's speed drifts within seconds): each row's 7 runs are spread
// over the same time as every other row's.
const rows = [];
for (const [bodyName, body] of Object.entries(bodies)) {
  const runs = Object.fromEntries(Object.keys(schemes).map((name) => [name, []]));
  for (const fn of Object.values(schemes)) await microsPerSignature(fn, body, Math.min(2000, count)); // warm-up
  for (let r = 0; r < 7; r++) {
    for (const [name, fn] of Object.entries(schemes))
      runs[name].push(await microsPerSignature(fn, body, count));
  }
  const median = (name) => [...runs[name]].sort((a, b) => a - b)[3];
  for (const name of Object.keys(schemes)) {
    const sorted = [...runs[name]].sort((a, b) => a - b);
    rows.push({
      body: bodyName,
      scheme: name,
      'µs/signature (median)': median(name).toFixed(1),
      'min–max': `${sorted[0].toFixed(1)}–${sorted[6].toFixed(1)}`,
      '× platform': (median(name) / median('platform')).toFixed(1),
      'signatures/s/core': Math.round(1e6 / median(name)).toLocaleString('en-US'),
    });
  }
}
console.log(`Node ${process.version}, ${count} signatures per run, 7 runs per row`);
console.table(rows);
