import type { DeliveryTargetRead } from '../../storage/index.js';
import { type DestinationClients, declaredDestination, destinationOf } from '../destinations/index.js';
import { endpointSettings, type OAuthTokens, staticAuthorization } from '../endpoint/index.js';
import type { DeliveryTarget } from '../engine.js';
import { parseRetrySchedule } from '../schedule.js';
import { deliverySigningOf } from '../signature/index.js';

/** Past this many installations read, the reads are forgotten (memory stays bounded). */
const MAX_ENTRIES = 10_000;

/** What a delivery asks of {@link DeliveryTargets}: its installation, and the routing epoch it is current at. */
export interface TargetRequest {
  installationId: string;
  /**
   * The routing epoch its claim read, or at which the accepting write that handed it over was checked; a
   * read at this epoch or a later one is current for it. Undefined (a job handed over by a write stored
   * unchecked): only a read since the last {@link DeliveryTargets.forget} is.
   */
  routingEpoch?: number | undefined;
}

interface Entry {
  read: Promise<DeliveryTargetRead | null>;
}

/**
 * Where deliveries go (URL and signing secrets), read once per installation and reused while it is
 * current: a read at the routing epoch the job's claim read, or its accepting write was checked at, or
 * later (an edit, a rotation or an uninstall moves the epoch on: docs/architecture.md, "Accepting
 * events"); for a job without an epoch, a read since the last {@link forget}. A read whose previous secret
 * has expired since is not reused. A failed read is not kept.
 *
 * @example
 * const targets = new DeliveryTargets((id) => storage.webhookSecrets.deliveryTarget(id, Date.now()));
 * const target = await targets.resolve({ installationId: 'inst_1', routingEpoch: 12 });
 * targets.forget(); // before jobs without an epoch
 */
export class DeliveryTargets {
  #entries = new Map<string, Entry>();
  readonly #read: (installationId: string) => Promise<DeliveryTargetRead | null>;
  readonly #now: () => number;
  readonly #tokens: OAuthTokens | undefined;
  readonly #clients: DestinationClients | undefined;

  /**
   * `tokens`: where endpoints with OAuth2 client-credentials auth get their tokens; `clients`: the open
   * clients of destinations other than HTTP (without it, such a destination's deliveries fail `invalid_target`).
   */
  constructor(
    read: (installationId: string) => Promise<DeliveryTargetRead | null>,
    now: () => number = Date.now,
    tokens?: OAuthTokens,
    clients?: DestinationClients,
  ) {
    this.#read = read;
    this.#now = now;
    this.#tokens = tokens;
    this.#clients = clients;
  }

  /** Jobs without a routing epoch are coming: reads made before now are not current for them. */
  forget(): void {
    this.#entries = new Map();
  }

  /** The URL and secrets of the request's installation, or null (gone, or no URL configured). */
  async resolve(request: TargetRequest): Promise<DeliveryTarget | null> {
    const { installationId: id, routingEpoch } = request;
    const entry = this.#entries.get(id);
    if (entry) {
      const read = await entry.read.catch(() => undefined);
      if (read !== undefined && this.#current(read, routingEpoch))
        return toTarget(id, read, this.#tokens, this.#clients);
      // Another delivery of the installation started a read meanwhile, after this one was handed over or
      // claimed: current for it too.
      const newer = this.#entries.get(id);
      if (newer && newer !== entry) return toTarget(id, await newer.read, this.#tokens, this.#clients);
    }
    // Read again: the freshest read there is serves the request, whatever its epoch.
    return toTarget(id, await this.#readInto(id), this.#tokens, this.#clients);
  }

  #current(read: DeliveryTargetRead | null, routingEpoch: number | undefined): boolean {
    if (read === null) return routingEpoch === undefined;
    if (routingEpoch !== undefined && read.epoch < routingEpoch) return false;
    return read.validUntil === null || this.#now() < read.validUntil;
  }

  #readInto(id: string): Promise<DeliveryTargetRead | null> {
    if (this.#entries.size >= MAX_ENTRIES) this.#entries = new Map();
    const entry: Entry = { read: this.#read(id) };
    this.#entries.set(id, entry);
    entry.read.catch(() => {
      if (this.#entries.get(id) === entry) this.#entries.delete(id);
    });
    return entry.read;
  }
}

/**
 * The engine's target of a read: where the installation's configuration declares its deliveries go
 * (`declaredDestination`: a `destination` object, else HTTP to its `url`), its secrets, and for HTTP the
 * endpoint settings when it has any (custom headers, a static `Authorization`, or an OAuth2 token's).
 * Without a `destination` and endpoint settings, exactly the spec's target.
 */
function toTarget(
  id: string,
  read: DeliveryTargetRead | null,
  tokens: OAuthTokens | undefined,
  clients: DestinationClients | undefined,
): DeliveryTarget | null {
  const declared = read ? declaredDestination(read.configuration) : null;
  if (!read || !declared) return null;
  if (declared.kind !== 'http') return destinationTarget(id, read, declared, clients);
  const { url } = declared.config as { url?: unknown };
  if (typeof url !== 'string') return null;
  const target: DeliveryTarget = { url, secrets: read.secrets };
  addSigningAndSchedule(target, read);
  if (read.credentials === null && read.configuration.rate_limit === undefined) return target;
  const { headers, auth, rateLimit } = endpointSettings(read.configuration, read.credentials);
  if (rateLimit !== null) target.rateLimit = rateLimit;
  const fixed = auth ? staticAuthorization(auth) : undefined;
  if (fixed !== undefined) headers.Authorization = fixed;
  if (Object.keys(headers).length > 0) target.headers = headers;
  if (auth?.type === 'oauth2_client_credentials') {
    target.authorization = tokens
      ? { current: () => tokens.authorization(id, auth), renew: () => tokens.renew(id, auth) }
      : {
          current: () => Promise.reject(new Error('no OAuth2 token client in this engine')),
          renew: () => Promise.reject(new Error('no OAuth2 token client in this engine')),
        };
  }
  return target;
}

/** The installation's signature scheme and retry schedule, on any destination. */
function addSigningAndSchedule(target: DeliveryTarget, read: DeliveryTargetRead): void {
  // The default scheme leaves the target as it always was: `platform` signs in the sender's own path.
  const signing = deliverySigningOf(read.configuration, read.signingKeys);
  if (signing.scheme !== 'platform') target.signing = signing;
  const setting = read.configuration.retry_schedule;
  if (setting !== undefined) {
    // Validated when saved (configurationErrors); one that no longer reads falls back to the spec's.
    const parsed = parseRetrySchedule(setting);
    if (parsed.ok) target.schedule = parsed.schedule;
  }
}

/**
 * The target of a destination other than HTTP: its open client (or why there is none), the installation's
 * secrets and signature scheme (the message carries the same signature headers as HTTP) and retry schedule.
 * Endpoint settings (custom headers, auth, rate limit) are HTTP's and do not apply.
 */
function destinationTarget(
  id: string,
  read: DeliveryTargetRead,
  declared: { kind: string; config: unknown },
  clients: DestinationClients | undefined,
): DeliveryTarget {
  const { kind } = declared;
  const target: DeliveryTarget = { url: `${kind}:`, secrets: read.secrets };
  addSigningAndSchedule(target, read);
  const found = destinationOf(kind);
  if ('problem' in found) {
    target.destination = { kind, problem: found.problem };
    return target;
  }
  if (!clients) {
    target.destination = { kind, problem: `no client for "${kind}" destinations in this engine` };
    return target;
  }
  try {
    const config = found.destination.parse(declared.config);
    target.url = found.destination.describe(config);
    target.destination = { kind, client: clients.client(id, found.destination, config) };
  } catch {
    // Validated when saved; one that no longer parses names no value (it may hold a credential).
    target.destination = {
      kind,
      problem: `the "${kind}" destination's configuration is not valid; save it again`,
    };
  }
  return target;
}
