import {
  connect,
  type JetStreamClient,
  type NatsConnection,
  NatsError,
  headers as natsHeaders,
  type TlsOptions,
} from 'nats';
import { type AttemptError, describe } from '../../errors.js';
import {
  BROKER_ERROR_CODES,
  brokerClientOpener,
  brokerError,
  type ConnectTarget,
  hostPort,
} from '../broker/index.js';
import type { DestinationMessage } from '../types.js';
import type { NatsConfig } from './config.js';

async function openConnection(
  config: NatsConfig,
  to: ConnectTarget,
  lost: () => void,
): Promise<NatsConnection> {
  const { endpoint } = config;
  // The node transport passes `tls` on to tls.connect: the certificate is checked against the host name.
  const tls: TlsOptions & { servername: string } = { handshakeFirst: false, servername: endpoint.host };
  const connection = await connect({
    servers: hostPort({ host: to.address, port: endpoint.port }),
    name: 'platform-host',
    // One server, the checked address: no reconnect loop of the library's own (the next attempt
    // opens a new connection), no DNS of its own, no server addresses learnt from a cluster.
    reconnect: false,
    resolve: false,
    ignoreClusterUpdates: true,
    noRandomize: true,
    timeout: to.timeoutMs,
    ...(endpoint.tls ? { tls } : {}),
    ...(endpoint.username === undefined ? {} : { user: endpoint.username }),
    ...(endpoint.password === undefined ? {} : { pass: endpoint.password }),
    ...(config.token === undefined ? {} : { token: config.token }),
  });
  void connection.closed().then(lost);
  return connection;
}

const jetstreams = new WeakMap<NatsConnection, JetStreamClient>();

/** The connection's JetStream context, made once (each publish passes its own timeout). */
function jetstreamOf(connection: NatsConnection): JetStreamClient {
  let js = jetstreams.get(connection);
  if (!js) {
    js = connection.jetstream();
    jetstreams.set(connection, js);
  }
  return js;
}

/** The connection closed while a publish waited for its PubAck. */
class ConnectionLostError extends Error {}

/** No stream captures the subject: the publish had no responder and the JetStream API finds no stream. */
class NoStreamError extends Error {}

async function publish(
  connection: NatsConnection,
  config: NatsConfig,
  message: DestinationMessage,
  remainingMs: () => number,
): Promise<void> {
  const headers = natsHeaders();
  for (const [name, value] of Object.entries(message.headers)) headers.set(name, value);
  const js = jetstreamOf(connection);
  try {
    await js.publish(config.subject, Buffer.from(message.body, 'utf8'), {
      msgID: message.deliveryId,
      headers,
      timeout: Math.max(1, Math.floor(remainingMs())),
      ...(config.stream === undefined ? {} : { expect: { streamName: config.stream } }),
    });
  } catch (error) {
    // The connection closed under the publish (the library reports its pending request as a timeout).
    if (connection.isClosed())
      throw new ConnectionLostError('the connection closed before the PubAck', { cause: error });
    // No responder: either no stream captures the subject (the configuration is wrong) or JetStream
    // cannot answer now. The JetStream API tells which.
    if (error instanceof NatsError && error.code === '503') {
      const manager = await connection.jetstreamManager({
        checkAPI: false,
        timeout: Math.max(1, Math.floor(remainingMs())),
      });
      const found = await manager.streams.find(config.subject).then(
        () => true,
        (findError: unknown) => (findError instanceof NatsError ? undefined : false),
      );
      if (found === false) throw new NoStreamError(`no stream captures subject "${config.subject}"`);
    }
    throw error;
  }
}

const REJECTED = new Set([
  'AUTHORIZATION_VIOLATION',
  'AUTHENTICATION_EXPIRED',
  'AUTHENTICATION_TIMEOUT',
  'ACCOUNT_EXPIRED',
  'BAD_AUTHENTICATION',
  'BAD_CREDS',
  'PERMISSIONS_VIOLATION',
  'MAX_PAYLOAD_EXCEEDED',
  'BAD_SUBJECT',
  'BAD_HEADER',
]);

/**
 * NATS's failures; undefined for a plain network error (refused, reset, DNS, target blocked...).
 *
 * @example
 * classifyNatsError(NatsError.errorForCode('AUTHORIZATION_VIOLATION'))?.code; // 'broker_rejected'
 */
export function classifyNatsError(error: unknown): AttemptError | undefined {
  if (error instanceof NoStreamError) {
    return brokerError(BROKER_ERROR_CODES.rejected, 'No JetStream stream stores the subject', error);
  }
  if (error instanceof ConnectionLostError) {
    return brokerError(BROKER_ERROR_CODES.unavailable, 'JetStream did not acknowledge the message', error);
  }
  if (!(error instanceof NatsError)) return undefined;
  if (error.api_error) {
    // JetStream's own answer: HTTP-like codes (5xx: cannot store now; 4xx: this publish is refused).
    const code = error.api_error.code >= 500 ? BROKER_ERROR_CODES.unavailable : BROKER_ERROR_CODES.rejected;
    return brokerError(code, 'The JetStream stream did not store the message', error);
  }
  switch (error.code) {
    case 'CONNECTION_REFUSED':
      return { code: 'connection_refused', message: describe('connection_refused', error) };
    case 'CONNECTION_TIMEOUT':
    case 'TIMEOUT':
      return { code: 'timeout', message: describe('timeout', error) };
    case 'TLS':
      return { code: 'tls_error', message: describe('tls_error', error) };
  }
  if (REJECTED.has(error.code)) return brokerError(BROKER_ERROR_CODES.rejected, 'The server refused', error);
  if (error.chainedError !== undefined && 'code' in error.chainedError) return undefined;
  return brokerError(BROKER_ERROR_CODES.unavailable, 'JetStream did not acknowledge the message', error);
}

/**
 * Opens a NATS JetStream client: one connection, opened on the first attempt (after the address
 * policy check) and again after it is lost.
 *
 * @example
 * const client = openNatsClient(config, { policy });
 * await client.send(message, { timeoutMs: 10_000 }); // { acknowledged: true, ... }
 */
export const openNatsClient = brokerClientOpener<NatsConfig, NatsConnection>({
  open: openConnection,
  close: (connection) => connection.close().catch(() => {}),
  publish,
  classify: classifyNatsError,
});
