import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerSuite, testMessage, uniqueName } from '../broker/test-support.js';
import { REDIS_STREAM_FIELDS, redisStreamsDestination } from './index.js';

// The real Redis of this machine (.ci/run starts it).
const URL = 'redis://127.0.0.1:6379';
const broker = brokerSuite(redisStreamsDestination, 6379);

let bare: Redis;
const keys: string[] = [];

function newKey(): string {
  const key = uniqueName('dest_test');
  keys.push(key);
  return key;
}

/** The stream's entries as field maps. */
async function entries(key: string): Promise<Record<string, string>[]> {
  const raw = await bare.xrange(key, '-', '+');
  return raw.map(([, fields]) => {
    const map: Record<string, string> = {};
    for (let i = 0; i < fields.length; i += 2) map[fields[i]!] = fields[i + 1]!;
    return map;
  });
}

beforeAll(() => {
  bare = new Redis(6379, '127.0.0.1');
});

afterAll(async () => {
  if (keys.length > 0) await bare.del(...keys);
  await bare.quit();
});

describe('redis streams destination', () => {
  it('appends one entry per message with body, ids, type, attempt and headers as JSON', async () => {
    const key = newKey();
    const message = testMessage({ attempt: 2 });
    const result = await broker.sendOnce({ url: URL, key }, message);
    expect(result.error).toBeUndefined();
    expect(result.acknowledged).toBe(true);

    const [entry, ...rest] = await entries(key);
    expect(rest).toEqual([]);
    expect(Object.keys(entry!)).toEqual([...REDIS_STREAM_FIELDS]);
    expect(entry).toMatchObject({
      body: message.body,
      event_id: message.eventId,
      event_type: 'page.updated',
      delivery_id: message.deliveryId,
      attempt: '2',
    });
    expect(JSON.parse(entry!.headers!)).toMatchObject({
      'x-platform-signature': 't=1767225600,v1=abc123',
      'x-platform-delivery-id': message.deliveryId,
      'x-platform-delivery-attempt': '2',
    });
  });

  it('stores every message published; maxLen caps the stream', async () => {
    const key = newKey();
    const client = broker.open({ host: '127.0.0.1', key });
    const messages = Array.from({ length: 50 }, () => testMessage());
    const results = await Promise.all(messages.map((m) => client.send(m, { timeoutMs: 5000 })));
    await client.close();
    expect(results.every((r) => r.acknowledged === true)).toBe(true);
    expect(new Set((await entries(key)).map((e) => e.event_id))).toEqual(
      new Set(messages.map((m) => m.eventId)),
    );

    const capped = newKey();
    const exact = broker.open({
      url: URL,
      key: capped,
      maxLen: 10,
      approximate: false,
    });
    for (const m of messages.slice(0, 25))
      expect((await exact.send(m, { timeoutMs: 5000 })).acknowledged).toBe(true);
    await exact.close();
    const kept = await entries(capped);
    expect(kept.map((e) => e.event_id)).toEqual(messages.slice(15, 25).map((m) => m.eventId));
  });

  it('fails a key of another type as broker_rejected', async () => {
    const key = newKey();
    await bare.set(key, 'a string');
    const result = await broker.sendOnce({ url: URL, key });
    expect(result.error?.code).toBe('broker_rejected');
    expect(result.error?.message).toContain('WRONGTYPE');
  });

  broker.itValidatesTheConfiguration({
    invalid: [
      [{ url: URL }, 'key'],
      [{ url: URL, key: '' }, 'key'],
      [{ url: URL, key: 'k', maxLen: 0 }, 'maxLen'],
      [{ url: URL, key: 'k', approximate: true }, 'approximate'],
      [{ url: 'redis://h/abc', key: 'k' }, 'url'],
      [{ url: 'redis://h/1', db: 2, key: 'k' }, 'db'],
      [{ url: 'not a url', key: 'k' }, 'url'],
      [{ host: 'h', port: '6379', key: 'k' }, 'port'],
    ],
    valid: { url: 'rediss://default:s3cret@cache.example.com/3', key: 'hooks', maxLen: 1000 },
    check: (config) => expect(config).toMatchObject({ db: 3, key: 'hooks', maxLen: 1000, approximate: true }),
    endpoint: { host: 'cache.example.com', port: 6379, tls: true, password: 's3cret' },
    text: 'redis-streams rediss://cache.example.com:6379/3 key "hooks" maxlen ~1000',
  });

  broker.itBehavesLikeABrokerDestination(async () => {
    const key = newKey();
    return {
      config: (host, port) => ({ host, port, key }),
      storedEventIds: async () => (await entries(key)).map((entry) => entry.event_id ?? ''),
    };
  });
});
