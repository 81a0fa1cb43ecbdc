// Load generators of the delivery benchmark: raw signed POSTs (the ceiling) and events posted to the host.
import { randomBytes } from 'node:crypto';
import { sign } from '@platform/webhooks';
import { Agent, request } from 'undici';
import { now, sleep } from './lib.mjs';

export const SPACE = 'bench-space';
export const BODY_BYTES = 400;

/** A caller's event id: `evt_` + 16 random bytes, base64url (each lands on a random page of the index). */
export const newEventId = () => `evt_${randomBytes(16).toString('base64url')}`;

const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/**
 * An event id shaped like the host's own (`newSortableId`: 9 base32 characters of the millisecond time,
 * then 16 random bytes), for `--event-ids=sortable`: new ids land at the end of the index.
 */
export function sortableEventId(now = Date.now()) {
  let time = '';
  for (let i = 0, rest = now; i < 9; i++, rest = Math.floor(rest / 32)) time = BASE32[rest % 32] + time;
  return `evt_${time}${randomBytes(16).toString('base64url')}`;
}

/**
 * The event posted to `POST /v1/events`, with `revisionId` padded so that the body the host delivers
 * (the event plus `installationId`) is `BODY_BYTES` long.
 */
export function makeEvent(installationId, eventId = newEventId()) {
  const event = { eventId, type: 'space_content_updated', spaceId: SPACE, revisionId: 'rev-' };
  const size = JSON.stringify({ ...event, installationId }).length;
  event.revisionId += 'x'.repeat(Math.max(0, BODY_BYTES - size));
  return event;
}

/** The exact body the host would deliver for `event` (used by the raw ceiling). */
export const deliveredBody = (event, installationId) => JSON.stringify({ ...event, installationId });

/** Runs `task(i)` for i in [0, count) with at most `concurrency` at once. */
async function pool(count, concurrency, task) {
  let next = 0;
  const runners = Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) await task(next++);
  });
  await Promise.all(runners);
}

/**
 * (a) The raw ceiling: `count` signed POSTs straight to the receiver with undici `request`, the same
 * headers the host sends, no queue, `concurrency` at once over `connections` sockets.
 * @returns {Promise<{start: number, errors: number, eventIds: string[]}>}
 */
export async function rawPosts({ url, secret, installationId, count, concurrency, connections }) {
  const dispatcher = new Agent({ connections, keepAliveTimeout: 30_000 });
  const events = Array.from({ length: count }, () => makeEvent(installationId));
  let errors = 0;
  const start = now();
  try {
    await pool(count, concurrency, async (i) => {
      const event = events[i];
      const body = Buffer.from(deliveredBody(event, installationId), 'utf8');
      const signature = await sign(body, [secret], { timestamp: Math.floor(Date.now() / 1000) });
      try {
        const res = await request(url, {
          method: 'POST',
          dispatcher,
          body,
          headers: {
            'content-type': 'application/json',
            'x-platform-signature': signature,
            'x-platform-event-id': event.eventId,
            'x-platform-event-type': event.type,
            'x-platform-delivery-id': `raw_${i}`,
            'x-platform-delivery-attempt': '1',
            'user-agent': 'Platform-Webhooks/bench',
          },
        });
        await res.body.text();
        if (res.statusCode !== 200) errors++;
      } catch {
        errors++;
      }
    });
  } finally {
    await dispatcher.close();
  }
  return { start, errors, eventIds: events.map((e) => e.eventId) };
}

/**
 * A client of the host's `POST /v1/events`; records when each event's 202 came back. With several
 * `hostUrls` (hosts on one database) `balance` says which host each event goes to: `turns` (default) in
 * turn (round-robin: each host gets the same number of events, and a host that answers more slowly than
 * the others holds more of the requests in flight), or `least`: the host with the fewest requests in
 * flight, ties in turn (as a load balancer's least-connections: with `concurrency` = N × the number of
 * hosts in a burst, each host holds N in flight, and a faster host takes more events). `drop(url)` stops
 * sending to one (a host that was killed). Each result says which host (`host`, its index) it went to.
 */
export function eventPoster({
  hostUrl,
  hostUrls = [hostUrl],
  adminToken,
  installationId,
  connections,
  sortableIds = false,
  balance = 'turns',
}) {
  if (balance !== 'turns' && balance !== 'least')
    throw new RangeError(`eventPoster: balance must be "turns" or "least"; got "${balance}"`);
  const dispatcher = new Agent({ connections, keepAliveTimeout: 30_000 });
  const headers = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  let live = [...hostUrls];
  let turn = 0;
  const inFlight = new Map(hostUrls.map((url) => [url, 0]));

  /** The next event's host: in turn, or the live host with the fewest requests in flight (ties in turn). */
  function pick() {
    const first = turn++ % live.length;
    if (balance === 'turns') return live[first];
    let best = live[first];
    for (let i = 1; i < live.length; i++) {
      const url = live[(first + i) % live.length];
      if (inFlight.get(url) < inFlight.get(best)) best = url;
    }
    return best;
  }

  /** Posts one event; resolves with {eventId, host, sentAt, acceptedAt} or {eventId, host, error}. */
  async function post() {
    const event = makeEvent(installationId, sortableIds ? sortableEventId() : newEventId());
    const target = pick();
    const host = hostUrls.indexOf(target);
    inFlight.set(target, inFlight.get(target) + 1);
    const sentAt = now();
    try {
      const res = await request(`${target}/v1/events`, {
        method: 'POST',
        dispatcher,
        headers,
        body: JSON.stringify(event),
      });
      const text = await res.body.text();
      const acceptedAt = now();
      if (res.statusCode !== 202)
        return { eventId: event.eventId, host, error: `HTTP ${res.statusCode}: ${text}` };
      return { eventId: event.eventId, host, sentAt, acceptedAt };
    } catch (error) {
      return { eventId: event.eventId, host, error: String(error) };
    } finally {
      inFlight.set(target, inFlight.get(target) - 1);
    }
  }

  return {
    /** `count` events as fast as possible, `concurrency` requests in flight. */
    async burst(count, concurrency) {
      const results = [];
      const start = now();
      await pool(count, concurrency, async () => {
        results.push(await post());
      });
      return { start, results };
    },
    /**
     * Events at `rate` per second for `seconds`, each sent at its scheduled time (at most `maxInFlight`
     * outstanding; `maxLagMs` says how far behind schedule the sender fell). `midway`, if given, is
     * `{ at, run }`: `run()` is started (not awaited) once `at` events have been sent.
     */
    async paced(rate, seconds, maxInFlight, midway = null) {
      const total = Math.round(rate * seconds);
      const results = [];
      const inFlight = new Set();
      const start = now();
      let sent = 0;
      let maxLagMs = 0;
      while (sent < total) {
        const due = Math.min(total, Math.floor(((now() - start) / 1000) * rate) + 1);
        while (sent < due && inFlight.size < maxInFlight) {
          maxLagMs = Math.max(maxLagMs, now() - (start + (sent / rate) * 1000));
          const p = post().then((r) => {
            results.push(r);
            inFlight.delete(p);
          });
          inFlight.add(p);
          sent++;
          if (midway && sent === midway.at) void midway.run();
        }
        await sleep(1);
      }
      await Promise.all(inFlight);
      return { start, results, maxLagMs, sendSeconds: (now() - start) / 1000 };
    },
    /** Sends no more events to `url` (the others keep their turns). */
    drop(url) {
      if (live.length > 1) live = live.filter((u) => u !== url);
    },
    close: () => dispatcher.close(),
  };
}
