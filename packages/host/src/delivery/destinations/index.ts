import { httpDestination } from './http/index.js';
import { natsDestination } from './nats/index.js';
import { rabbitmqDestination } from './rabbitmq/index.js';
import { redisStreamsDestination } from './redis-streams/index.js';
import type { Destination, DestinationClient, DestinationContext } from './types.js';

export { type HttpConfig, httpDestination, safeUrl } from './http/index.js';
export type {
  Destination,
  DestinationAddress,
  DestinationClient,
  DestinationContext,
  DestinationMessage,
} from './types.js';

/**
 * Every kind of destination the host delivers to, by the `kind` an installation's configuration names
 * (`destination: { kind, ... }`). A new destination is its folder (`./<kind>/index.ts`, exporting a
 * {@link Destination}) and one line here.
 *
 * @example
 * DESTINATIONS.http === httpDestination; // true
 */
export const DESTINATIONS: Readonly<Record<string, Destination<unknown>>> = {
  [httpDestination.kind]: httpDestination,
  [rabbitmqDestination.kind]: rabbitmqDestination as Destination<unknown>,
  [natsDestination.kind]: natsDestination as Destination<unknown>,
  [redisStreamsDestination.kind]: redisStreamsDestination as Destination<unknown>,
};

/** The kind an installation without a `destination` is delivered to, with its `url`. */
export const DEFAULT_DESTINATION = httpDestination.kind;

/** What an installation's configuration declares: the kind, and the configuration that kind parses. */
export interface DeclaredDestination {
  kind: string;
  config: unknown;
}

/**
 * Where an installation's deliveries go, as its configuration declares it: a `destination` object
 * (`{ kind: 'rabbitmq', ... }`), else HTTP with its `url` (today's configuration); null when it declares
 * neither (its deliveries end `target_unavailable`, as before).
 *
 * @example
 * declaredDestination({ url: 'https://hooks.example.com/in' }); // { kind: 'http', config: { url: '…' } }
 * declaredDestination({ destination: { kind: 'nats', url: 'nats://127.0.0.1:4222', subject: 'x' } });
 * // { kind: 'nats', config: { url: 'nats://127.0.0.1:4222', subject: 'x' } }
 */
export function declaredDestination(
  configuration: Readonly<Record<string, unknown>>,
): DeclaredDestination | null {
  const declared = configuration.destination;
  if (declared !== undefined && declared !== null) {
    if (typeof declared !== 'object' || Array.isArray(declared)) return { kind: '', config: declared };
    // The kind selects the destination; the rest is that kind's configuration (parsed strictly).
    const { kind, ...config } = declared as { kind?: unknown };
    return { kind: typeof kind === 'string' ? kind : '', config };
  }
  if (typeof configuration.url === 'string')
    return { kind: DEFAULT_DESTINATION, config: { url: configuration.url } };
  return null;
}

/**
 * The registered destination of a kind, or a message that says what is wrong and what the kinds are.
 *
 * @example
 * destinationOf('http'); // { destination: httpDestination }
 * destinationOf('smtp'); // { problem: 'destination.kind: "smtp" is not a destination; use one of: http' }
 */
export function destinationOf(kind: string): { destination: Destination<unknown> } | { problem: string } {
  const destination = Object.hasOwn(DESTINATIONS, kind) ? DESTINATIONS[kind] : undefined;
  if (destination) return { destination };
  const kinds = Object.keys(DESTINATIONS).join(', ');
  return {
    problem:
      kind === ''
        ? `destination.kind: required; use one of: ${kinds}`
        : `destination.kind: "${kind}" is not a destination; use one of: ${kinds}`,
  };
}

/**
 * Checks a declared `destination` when the configuration is saved: a known kind whose configuration
 * parses. Messages name the field and never a credential value (zod's messages name paths, not values).
 *
 * @example
 * destinationProblems({ destination: { kind: 'smtp' } }); // ['destination.kind: "smtp" is not a destination; …']
 * destinationProblems({ url: 'https://hooks.example.com/in' }); // [] (checked as a URL elsewhere)
 */
export function destinationProblems(configuration: Readonly<Record<string, unknown>>): string[] {
  if (configuration.destination === undefined) return [];
  const declared = declaredDestination(configuration);
  if (!declared) return [];
  const found = destinationOf(declared.kind);
  if ('problem' in found) return [found.problem];
  try {
    found.destination.parse(declared.config);
    return [];
  } catch (error) {
    const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues;
    if (Array.isArray(issues)) {
      return issues.map(
        (issue) => `destination.${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`,
      );
    }
    return [`destination: ${error instanceof Error ? error.message : 'not valid'}`];
  }
}

/**
 * The open clients of the installations' destinations, one per installation, reused while its declared
 * configuration stays the same (a changed one closes the old client and opens a new one).
 *
 * @example
 * const clients = new DestinationClients({ policy });
 * const client = clients.client('inst_1', destination, config);
 * await clients.close();
 */
export class DestinationClients {
  readonly #context: DestinationContext;
  readonly #open = new Map<string, { key: string; client: DestinationClient }>();

  constructor(context: DestinationContext) {
    this.#context = context;
  }

  /** The installation's client for `config` (parsed by `destination`), opened on first use. */
  client(installationId: string, destination: Destination<unknown>, config: unknown): DestinationClient {
    const key = `${destination.kind}\0${JSON.stringify(config)}`;
    const open = this.#open.get(installationId);
    if (open?.key === key) return open.client;
    if (open) void open.client.close().catch(() => undefined);
    const client = destination.open(config, this.#context);
    this.#open.set(installationId, { key, client });
    return client;
  }

  /** Closes every open client. */
  async close(): Promise<void> {
    const clients = [...this.#open.values()].map((open) => open.client);
    this.#open.clear();
    await Promise.allSettled(clients.map((client) => client.close()));
  }
}
