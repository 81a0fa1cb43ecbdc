import { SharedCells } from '../../storage/index.js';

/**
 * The delivery engine's free slots, shared between the host's main thread and the delivery thread, so the
 * main thread can hand it first attempts already leased (no claim transaction, no wake-up round trip).
 * Two Int32 cells of a SharedArrayBuffer:
 * - FREE: slots neither running an attempt, nor waiting for one in the thread's runway, nor promised to a
 *   job on its way to the thread (the thread gives its concurrency plus its runway's room,
 *   docs/architecture.md "The runway");
 * - WANTED: queued due work waits for the thread's slots (its last claim came back full, or found none
 *   free): the main thread then leaves new jobs in the queue, so they take their turn behind it.
 */
const FREE = 0;
const WANTED = 1;

export class DeliverySlots extends SharedCells {
  /**
   * New slots: none free (and work wanted) until the delivery thread is running and {@link give}s its
   * concurrency.
   *
   * @example
   * const slots = DeliverySlots.create(); // pass slots.buffer to the worker in workerData
   */
  static create(): DeliverySlots {
    const slots = new DeliverySlots(SharedCells.newBuffer(2));
    Atomics.store(slots.cells, WANTED, 1);
    return slots;
  }

  /**
   * The slots whose buffer another thread created.
   *
   * @example
   * const slots = DeliverySlots.from(workerData.slots);
   */
  static from(buffer: SharedArrayBuffer): DeliverySlots {
    return new DeliverySlots(SharedCells.adopt(buffer, 2, 'DeliverySlots'));
  }

  /**
   * Takes up to `max` free slots whether or not queued work is wanted (what {@link reserve} does when it is
   * not); returns how many it got (0 when none is free).
   *
   * @example
   * const granted = slots.take(8); // hand over `granted` jobs, give back what goes unused
   */
  take(max: number): number {
    for (;;) {
      const free = Atomics.load(this.cells, FREE);
      const got = Math.min(free, Math.max(0, Math.floor(max)));
      if (got === 0) return 0;
      if (Atomics.compareExchange(this.cells, FREE, free, free - got) === free) return got;
    }
  }

  /**
   * Returns `count` slots (an attempt ended, or taken slots went unused).
   *
   * @example
   * slots.give(1);
   */
  give(count: number): void {
    if (count > 0) Atomics.add(this.cells, FREE, count);
  }

  /**
   * For new jobs of the main thread: up to `max` slots, or none while the thread wants slots for queued work.
   *
   * @example
   * const granted = slots.reserve(jobs.length); // lease that many of the jobs to the thread
   */
  reserve(max: number): number {
    return Atomics.load(this.cells, WANTED) === 0 ? this.take(max) : 0;
  }

  /**
   * Set by the delivery thread: whether queued due work waits for its slots (see {@link reserve}).
   *
   * @example
   * slots.want(true); // a claim came back full: a backlog
   */
  want(wanted: boolean): void {
    Atomics.store(this.cells, WANTED, wanted ? 1 : 0);
  }

  /** Free slots right now (diagnostics and tests). */
  get free(): number {
    return Atomics.load(this.cells, FREE);
  }
}
