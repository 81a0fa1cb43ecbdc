/**
 * What the broker destinations (`rabbitmq/`, `nats/`, `redis-streams/`) share: the address-policy
 * check before connecting, one reusable connection per client, an attempt under a deadline, the
 * error codes, the message headers and the connection fields of their configuration.
 *
 * @example
 * import { ConnectionSlot, resolveAllowedAddress, runBrokerAttempt } from '../broker/index.js';
 */
export { resolveAllowedAddress } from './address.js';
export { type BrokerAttemptOptions, brokerError, brokerHeaders, runBrokerAttempt } from './attempt.js';
export {
  type BrokerClientParts,
  type BrokerConnectConfig,
  brokerClientOpener,
  type ConnectTarget,
} from './client.js';
export { BROKER_ERROR_CODES, type BrokerErrorCode } from './codes.js';
export {
  type BrokerEndpoint,
  DEFAULT_CONNECT_TIMEOUT_MS,
  type EndpointSchemes,
  endpointFields,
  hostPort,
  parseEndpoint,
} from './config.js';
export { ConnectionSlot, type SlotOpener } from './slot.js';
