// What a host's queue work costs, per delivery, from its own counters (`GET /metrics`) and its wake-ups
// (/proc): read before and after a phase by `bench:scale-out` (bench/delivery/scale-out.mjs).
import { ADMIN_TOKEN, fmt, table } from './lib.mjs';

/**
 * A host's own counters, from its Prometheus text: attempts (all outcomes), and what its queue work cost
 * (claims that got jobs / came back empty, jobs claimed, next-due reads, other hosts' signals heard,
 * statements sent by the main thread and by the delivery thread: `statements` both, `threadStatements` the
 * thread's: claims, next-due reads, attempt records), and its wake-ups (its threads' voluntary context
 * switches, read from /proc: the scrape itself adds a few, the same for every host).
 */
export async function countersOf(host) {
  const threads = host.wakeups();
  const res = await fetch(`${host.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const text = await res.text();
  const c = {
    attempts: 0,
    claims: 0,
    emptyClaims: 0,
    claimed: 0,
    nextDueReads: 0,
    signals: 0,
    statements: 0,
    threadStatements: 0,
    wakeups: threads.total,
    wakeupsMain: threads.main,
    wakeupsThread: threads.delivery,
    wakeupsOther: threads.other,
    // A host built before these counters existed reports none of them.
    counted: text.includes('platform_queue_claims_total'),
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line === '') continue;
    const value = Number(line.split(' ').at(-1));
    if (line.startsWith('platform_webhook_attempts_total{')) c.attempts += value;
    else if (line.startsWith('platform_queue_claims_total{result="jobs"}')) c.claims += value;
    else if (line.startsWith('platform_queue_claims_total{result="empty"}')) {
      c.claims += value;
      c.emptyClaims += value;
    } else if (line.startsWith('platform_queue_claimed_total ')) c.claimed += value;
    else if (line.startsWith('platform_queue_next_due_reads_total ')) c.nextDueReads += value;
    else if (line.startsWith('platform_queue_signals_total ')) c.signals += value;
    else if (line.startsWith('platform_storage_statements_total ')) c.statements += value;
    else if (line.startsWith('platform_delivery_thread_statements_total ')) {
      c.statements += value;
      c.threadStatements += value;
    }
  }
  return c;
}

/** The per-delivery costs, summed over the hosts: counters after minus before, divided by deliveries. */
export const COSTS = [
  'statements',
  'threadStatements',
  'claims',
  'emptyClaims',
  'claimed',
  'nextDueReads',
  'signals',
  'wakeups',
  'wakeupsMain',
  'wakeupsThread',
  'wakeupsOther',
];
export function perDelivery(before, after, deliveries) {
  const out = {};
  if (!after.every((a) => a.counted)) return Object.fromEntries(COSTS.map((key) => [key, null]));
  for (const key of COSTS) {
    const sum = after.reduce((s, a, i) => s + a[key] - before[i][key], 0);
    out[key] = Math.round((sum / deliveries) * 1000) / 1000;
  }
  return out;
}

/**
 * Prints the per-delivery costs of each row (`summary[key].perDelivery`, medians of the rounds), each
 * against one host's (`summary['1']`) where the run had one host.
 */
export function printCosts(summary, keys, label) {
  const one = summary['1']?.perDelivery;
  console.log(
    `\nper delivery, all hosts together (median of the rounds; the hosts' own counters, wake-ups from /proc)${one ? ', and x one host' : ''}:\n${table(
      ['', ...COSTS],
      keys.map((key) => [
        label(key),
        ...COSTS.map((c) => {
          const v = summary[key].perDelivery[c];
          const base = one?.[c];
          if (v === null) return '- (not counted by this build)';
          return `${fmt(v, 3)}${base && key !== '1' ? ` (${fmt(v / base, 2)}x)` : ''}`;
        }),
      ]),
    )}`,
  );
}
