import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerSuite, eventually, loopbackPolicy, testMessage, uniqueName } from '../broker/test-support.js';
import { rabbitmqDestination } from './index.js';

// The real RabbitMQ of this machine (.ci/run starts it).
const URL = 'amqp://guest:guest@127.0.0.1:5672';
const broker = brokerSuite(rabbitmqDestination, 5672);

let bare: amqp.ChannelModel;
let channel: amqp.Channel;
const queues: string[] = [];
const exchanges: string[] = [];

async function newQueue(): Promise<string> {
  const name = uniqueName('dest_test');
  await channel.assertQueue(name, { durable: false });
  queues.push(name);
  return name;
}

async function take(queue: string): Promise<amqp.GetMessage> {
  return eventually(async () => (await channel.get(queue, { noAck: true })) || undefined);
}

beforeAll(async () => {
  bare = await amqp.connect(URL);
  channel = await bare.createChannel();
});

afterAll(async () => {
  for (const queue of queues) await channel.deleteQueue(queue).catch(() => {});
  for (const exchange of exchanges) await channel.deleteExchange(exchange).catch(() => {});
  await bare.close();
});

describe('rabbitmq destination', () => {
  it('publishes a persistent message to a queue, acknowledged by the confirm, with the headers', async () => {
    const queue = await newQueue();
    const message = testMessage({ attempt: 2 });
    const result = await broker.sendOnce({ url: URL, queue }, message);
    expect(result.error).toBeUndefined();
    expect(result.acknowledged).toBe(true);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);

    const got = await take(queue);
    expect(got.content.toString('utf8')).toBe(message.body);
    expect(got.properties.messageId).toBe(message.eventId);
    expect(got.properties.deliveryMode).toBe(2);
    expect(got.properties.contentType).toBe('application/json');
    expect(got.properties.type).toBe('page.updated');
    expect(got.properties.headers).toMatchObject({
      'x-platform-signature': 't=1767225600,v1=abc123',
      'x-platform-event-id': message.eventId,
      'x-platform-delivery-id': message.deliveryId,
      'x-platform-delivery-attempt': '2',
    });
  });

  it('routes through an exchange and routing key: every message published arrives', async () => {
    const queue = await newQueue();
    const exchange = uniqueName('dest_test_x');
    exchanges.push(exchange);
    await channel.assertExchange(exchange, 'direct', { durable: false });
    await channel.bindQueue(queue, exchange, 'hooks');
    const config = rabbitmqDestination.parse({
      host: '127.0.0.1',
      username: 'guest',
      password: 'guest',
      exchange,
      routingKey: 'hooks',
    });
    const client = rabbitmqDestination.open(config, { policy: loopbackPolicy() });
    const messages = Array.from({ length: 50 }, () => testMessage());
    const results = await Promise.all(messages.map((m) => client.send(m, { timeoutMs: 5000 })));
    await client.close();
    expect(results.every((r) => r.acknowledged === true)).toBe(true);
    const ids = new Set<string>();
    while (ids.size < messages.length) ids.add(String((await take(queue)).properties.messageId));
    expect(ids).toEqual(new Set(messages.map((m) => m.eventId)));
  });

  it('fails an unroutable message (no queue) and a missing exchange as broker_rejected, then recovers', async () => {
    const exchange = uniqueName('dest_test_x');
    exchanges.push(exchange);
    const noQueue = broker.open({ url: URL, queue: uniqueName('absent') });
    const unroutable = await noQueue.send(testMessage(), { timeoutMs: 5000 });
    await noQueue.close();
    expect(unroutable.error?.code).toBe('broker_rejected');
    expect(unroutable.error?.message).toMatch(/route/);

    const client = broker.open({ url: URL, exchange, routingKey: 'k' });
    const missing = await client.send(testMessage(), { timeoutMs: 5000 });
    expect(missing.error?.code).toBe('broker_rejected');
    expect(missing.error?.message).toMatch(/NOT_FOUND|404/);
    // The operator creates the exchange: the same client opens a new channel and delivers.
    const queue = await newQueue();
    await channel.assertExchange(exchange, 'direct', { durable: false });
    await channel.bindQueue(queue, exchange, 'k');
    const message = testMessage();
    expect((await client.send(message, { timeoutMs: 5000 })).acknowledged).toBe(true);
    await client.close();
    expect((await take(queue)).properties.messageId).toBe(message.eventId);
  });

  it('refuses wrong credentials as broker_rejected, without the password in the message', async () => {
    const result = await broker.sendOnce({
      url: 'amqp://guest:s3cr3t-wrong@127.0.0.1:5672',
      queue: 'q',
    });
    expect(result.error?.code).toBe('broker_rejected');
    expect(result.error?.message).not.toContain('s3cr3t');
  });

  broker.itValidatesTheConfiguration({
    invalid: [
      [{ host: '127.0.0.1', port: 70_000, queue: 'q' }, 'port'],
      [{ host: '127.0.0.1' }, 'routingKey'],
      [{ url: 'http://127.0.0.1', queue: 'q' }, 'url'],
      [{ url: 'amqp://u:p@h', host: 'h', queue: 'q' }, 'url'],
      [{ queue: 'q' }, 'host'],
      [{ host: 'a/b', queue: 'q' }, 'host'],
      [{ url: URL, queue: 'q', exchange: 'x' }, 'queue'],
      [{ url: URL, queue: 'q', extra: 1 }, ''],
    ],
    valid: { url: 'amqps://user:pa%3Ass@mq.example.com/prod', queue: 'hooks' },
    check: (config) => expect(config.vhost).toBe('prod'),
    endpoint: { host: 'mq.example.com', port: 5671, tls: true, username: 'user', password: 'pa:ss' },
    text: 'rabbitmq amqps://mq.example.com:5671 vhost "prod" queue "hooks"',
  });

  broker.itBehavesLikeABrokerDestination(async () => {
    const queue = await newQueue();
    // Reading a queue takes the messages: what was read once stays in the list.
    const ids: string[] = [];
    return {
      config: (host, port) => ({ host, port, username: 'guest', password: 'guest', queue }),
      storedEventIds: async () => {
        for (
          let got = await channel.get(queue, { noAck: true });
          got;
          got = await channel.get(queue, { noAck: true })
        ) {
          ids.push(String(got.properties.messageId));
        }
        return ids;
      },
    };
  });
});
