import { deliverySigningOf } from '../../signing/index.js';
import type { DeliveryTargetRead } from '../../storage/index.js';
import type { DeliveryTarget } from '../engine.js';

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

  constructor(
    read: (installationId: string) => Promise<DeliveryTargetRead | null>,
    now: () => number = Date.now,
  ) {
    this.#read = read;
    this.#now = now;
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
      if (read !== undefined && this.#current(read, routingEpoch)) return toTarget(read);
      // Another delivery of the installation started a read meanwhile, after this one was handed over or
      // claimed: current for it too.
      const newer = this.#entries.get(id);
      if (newer && newer !== entry) return toTarget(await newer.read);
    }
    // Read again: the freshest read there is serves the request, whatever its epoch.
    return toTarget(await this.#readInto(id));
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

function toTarget(read: DeliveryTargetRead | null): DeliveryTarget | null {
  if (!read || typeof read.configuration.url !== 'string') return null;
  const signing = deliverySigningOf(read.configuration, read.signingKeys);
  // The default scheme leaves the target as it always was: `platform` signs in the sender's own path.
  return signing.scheme === 'platform'
    ? { url: read.configuration.url, secrets: read.secrets }
    : { url: read.configuration.url, secrets: read.secrets, signing };
}
