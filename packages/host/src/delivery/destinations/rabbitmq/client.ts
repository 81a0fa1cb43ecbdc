import amqp from 'amqplib';
import type { AttemptError } from '../../errors.js';
import { BROKER_ERROR_CODES, brokerClientOpener, brokerError, type ConnectTarget } from '../broker/index.js';
import type { DestinationMessage } from '../types.js';
import type { RabbitmqConfig } from './config.js';

/** One open AMQP connection with its confirm channel. */
interface Link {
  model: amqp.ChannelModel;
  channel: amqp.ConfirmChannel;
  /** Why the server closed the channel (404 no exchange, 403 access refused), when it did. */
  channelError?: Error;
  /** Publishes the broker returned as unroutable (`mandatory`), by delivery id and attempt. */
  returned: Set<string>;
}

const returnKey = (deliveryId: string, attempt: string | number) => `${deliveryId}#${attempt}`;

async function openLink(config: RabbitmqConfig, to: ConnectTarget, lost: () => void): Promise<Link> {
  const { endpoint } = config;
  const model = await amqp.connect(
    {
      protocol: endpoint.tls ? 'amqps' : 'amqp',
      hostname: to.address,
      port: endpoint.port,
      username: endpoint.username ?? 'guest',
      password: endpoint.password ?? 'guest',
      vhost: config.vhost,
      heartbeat: config.heartbeatSeconds,
    },
    {
      timeout: to.timeoutMs,
      noDelay: true,
      ...(endpoint.tls ? { servername: endpoint.host } : {}),
    },
  );
  model.on('error', () => {}); // A 'close' follows; the attempt in flight gets its own error.
  model.on('close', lost);
  try {
    const channel = await model.createConfirmChannel();
    const link: Link = { model, channel, returned: new Set() };
    channel.on('error', (error: Error) => {
      link.channelError = error;
    });
    // A closed channel cannot publish again: drop the whole connection, the next attempt opens both.
    channel.on('close', () => {
      lost();
      model.close().catch(() => {});
    });
    channel.on('return', (message: amqp.Message) => {
      const headers = message.properties.headers ?? {};
      link.returned.add(
        returnKey(String(headers['x-platform-delivery-id']), headers['x-platform-delivery-attempt']),
      );
    });
    return link;
  } catch (error) {
    await model.close().catch(() => {});
    throw error;
  }
}

function publish(link: Link, config: RabbitmqConfig, message: DestinationMessage): Promise<void> {
  const key = returnKey(message.deliveryId, message.attempt);
  return new Promise((resolve, reject) => {
    const confirmed = (error: unknown) => {
      const wasReturned = link.returned.delete(key);
      if (error) reject(link.channelError ?? error);
      else if (wasReturned) reject(new UnroutableError(config.exchange, config.routingKey));
      else resolve();
    };
    try {
      link.channel.publish(
        config.exchange,
        config.routingKey,
        Buffer.from(message.body, 'utf8'),
        {
          persistent: true,
          mandatory: true,
          messageId: message.eventId,
          type: message.eventType,
          contentType: 'application/json',
          timestamp: Math.floor(Date.now() / 1000),
          headers: message.headers,
        },
        confirmed,
      );
    } catch (error) {
      reject(link.channelError ?? error);
    }
  });
}

/** A message the broker could not route to any queue (returned under `mandatory`). */
class UnroutableError extends Error {
  constructor(exchange: string, routingKey: string) {
    super(`no queue is bound to exchange "${exchange}" with routing key "${routingKey}"`);
  }
}

/** The AMQP reply code and text of a server close, from amqplib's error message. */
function amqpReplyCode(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  if ('code' in error && typeof error.code === 'number') return error.code;
  const match = /\b(\d{3}) \(([A-Z-]+)\)/.exec(error.message);
  return match ? Number(match[1]) : undefined;
}

/**
 * RabbitMQ's failures; undefined for a plain network error (refused, reset, DNS...).
 *
 * @example
 * classifyRabbitmqError(new Error('message nacked'))?.code; // 'broker_unavailable'
 */
export function classifyRabbitmqError(error: unknown): AttemptError | undefined {
  if (error instanceof UnroutableError) {
    return brokerError(BROKER_ERROR_CODES.rejected, 'The broker could not route the message', error);
  }
  const reply = amqpReplyCode(error);
  // 403 access refused (credentials, permissions), 404 no exchange, 530 no vhost / not allowed, 406 precondition.
  if (reply === 403 || reply === 404 || reply === 406 || reply === 530) {
    return brokerError(BROKER_ERROR_CODES.rejected, 'The broker refused the publish', error);
  }
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return undefined;
  // A negative confirm, a connection or channel closed under the publish, a server close (320, 541...).
  return brokerError(BROKER_ERROR_CODES.unavailable, 'The broker did not confirm the message', error);
}

/**
 * Opens a RabbitMQ client: one connection and confirm channel, opened on the first attempt (after the
 * address policy check) and again after it is lost.
 *
 * @example
 * const client = openRabbitmqClient(config, { policy });
 * await client.send(message, { timeoutMs: 10_000 }); // { acknowledged: true, ... }
 */
export const openRabbitmqClient = brokerClientOpener<RabbitmqConfig, Link>({
  open: openLink,
  close: (link) => link.model.close().catch(() => {}),
  publish,
  classify: classifyRabbitmqError,
});
