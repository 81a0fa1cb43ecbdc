/**
 * Int32 cells in a `SharedArrayBuffer` that the threads of one process share (the host's main thread and
 * its delivery worker): one thread creates the buffer and passes it in `workerData`, the others adopt it.
 * The base of {@link WriterLock} and of the delivery engine's slots; each names its own cells.
 *
 * @example
 * class Flags extends SharedCells {
 *   static create() { return new Flags(SharedCells.newBuffer(1)); }
 *   static from(buffer: SharedArrayBuffer) { return new Flags(SharedCells.adopt(buffer, 1, 'Flags')); }
 * }
 */
export abstract class SharedCells {
  /** The cells, over {@link buffer}; read and written with `Atomics` only. */
  protected readonly cells: Int32Array;

  protected constructor(readonly buffer: SharedArrayBuffer) {
    this.cells = new Int32Array(buffer);
  }

  /** A new buffer of `count` cells, all 0. */
  protected static newBuffer(count: number): SharedArrayBuffer {
    return new SharedArrayBuffer(count * Int32Array.BYTES_PER_ELEMENT);
  }

  /** `buffer`, checked to be a shared buffer of at least `count` cells (a `TypeError` naming `owner` if not). */
  protected static adopt(buffer: SharedArrayBuffer, count: number, owner: string): SharedArrayBuffer {
    if (!(buffer instanceof SharedArrayBuffer) || buffer.byteLength < count * Int32Array.BYTES_PER_ELEMENT) {
      throw new TypeError(`${owner}.from: expected the SharedArrayBuffer of ${owner}.create()`);
    }
    return buffer;
  }
}
