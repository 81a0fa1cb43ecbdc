import { connect, type JetStreamManager, type NatsConnection, StorageType } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerSuite, testMessage, uniqueName } from '../broker/test-support.js';
import { natsDestination } from './index.js';

// The real NATS server with JetStream of this machine (.ci/run starts it).
const URL = 'nats://127.0.0.1:4222';
const broker = brokerSuite(natsDestination, 4222);

let bare: NatsConnection;
let jsm: JetStreamManager;
const streams: string[] = [];

/** A memory stream capturing a fresh subject. */
async function newStream(): Promise<{ stream: string; subject: string }> {
  const stream = uniqueName('DEST_TEST');
  const subject = `${stream.toLowerCase()}.events`;
  await jsm.streams.add({ name: stream, subjects: [subject], storage: StorageType.Memory });
  streams.push(stream);
  return { stream, subject };
}

beforeAll(async () => {
  bare = await connect({ servers: '127.0.0.1:4222' });
  jsm = await bare.jetstreamManager();
});

afterAll(async () => {
  for (const stream of streams) await jsm.streams.delete(stream).catch(() => {});
  await bare.close();
});

describe('nats jetstream destination', () => {
  it('publishes to the stream, acknowledged by its PubAck, with body and headers', async () => {
    const { stream, subject } = await newStream();
    const message = testMessage({ attempt: 3 });
    const result = await broker.sendOnce({ url: URL, subject, stream }, message);
    expect(result.error).toBeUndefined();
    expect(result.acknowledged).toBe(true);

    const stored = await jsm.streams.getMessage(stream, { seq: 1 });
    expect(Buffer.from(stored.data).toString('utf8')).toBe(message.body);
    expect(stored.subject).toBe(subject);
    expect(stored.header.get('Nats-Msg-Id')).toBe(message.deliveryId);
    expect(stored.header.get('x-platform-signature')).toBe('t=1767225600,v1=abc123');
    expect(stored.header.get('x-platform-event-id')).toBe(message.eventId);
    expect(stored.header.get('x-platform-delivery-attempt')).toBe('3');
  });

  it('stores every message published, and one copy of a delivery published twice (msgID)', async () => {
    const { stream, subject } = await newStream();
    const client = broker.open({ host: '127.0.0.1', subject });
    const messages = Array.from({ length: 50 }, () => testMessage());
    const results = await Promise.all(messages.map((m) => client.send(m, { timeoutMs: 5000 })));
    expect(results.every((r) => r.acknowledged === true)).toBe(true);
    // A retry of the first delivery (same delivery id, attempt 2): acknowledged, not stored again.
    const retry = await client.send({ ...messages[0]!, attempt: 2 }, { timeoutMs: 5000 });
    await client.close();
    expect(retry.acknowledged).toBe(true);
    const info = await jsm.streams.info(stream);
    expect(info.state.messages).toBe(50);
    const ids = new Set<string>();
    for (let seq = 1; seq <= 50; seq++)
      ids.add(String((await jsm.streams.getMessage(stream, { seq })).header.get('x-platform-event-id')));
    expect(ids).toEqual(new Set(messages.map((m) => m.eventId)));
  });

  it('fails a subject no stream captures as broker_rejected (not retried)', async () => {
    const result = await broker.sendOnce({ url: URL, subject: `${uniqueName('nostream')}.x` });
    expect(result.error?.code).toBe('broker_rejected');
    expect(result.error?.message).toMatch(/no stream captures subject/);
  });

  it('fails when another stream than the expected one captures the subject', async () => {
    const { subject } = await newStream();
    const result = await broker.sendOnce({ url: URL, subject, stream: 'OTHER' });
    expect(result.error?.code).toBe('broker_rejected');
  });

  broker.itValidatesTheConfiguration({
    invalid: [
      [{ url: URL }, 'subject'],
      [{ url: URL, subject: 'a.*' }, 'subject'],
      [{ url: URL, subject: 'a b' }, 'subject'],
      [{ url: 'amqp://h', subject: 'a' }, 'url'],
      [{ host: 'h', port: 0, subject: 'a' }, 'port'],
      [{ url: 'nats://u:p@h', token: 't', subject: 'a' }, 'token'],
      [{ url: URL, subject: 'a', stream: 'a.b' }, 'stream'],
    ],
    valid: { url: 'tls://user:secret@nats.example.com', subject: 'hooks.all', token: undefined },
    endpoint: { host: 'nats.example.com', port: 4222, tls: true, username: 'user' },
    text: 'nats tls://nats.example.com:4222 subject "hooks.all"',
  });

  broker.itBehavesLikeABrokerDestination(async () => {
    const { stream, subject } = await newStream();
    return {
      config: (host, port) => ({ host, port, subject }),
      storedEventIds: async () => {
        const ids: string[] = [];
        const { messages } = (await jsm.streams.info(stream)).state;
        for (let seq = 1; seq <= messages; seq++) {
          ids.push(String((await jsm.streams.getMessage(stream, { seq })).header.get('x-platform-event-id')));
        }
        return ids;
      },
    };
  });
});
