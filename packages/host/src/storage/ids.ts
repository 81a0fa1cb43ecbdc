import { randomFillSync } from 'node:crypto';

/** Random bytes are drawn 4 KiB at a time (one system call) and handed out 16 by 16. */
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let offset = POOL_SIZE;

function random16(): Buffer {
  if (offset + 16 > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_SIZE));
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + 16);
  offset += 16;
  return bytes;
}

/**
 * A random id with a prefix: 16 random bytes in base64url (128 bits).
 *
 * @example
 * newId('inst') // "inst_Zk3...": 27 characters
 */
export function newId(prefix: string): string {
  return `${prefix}_${random16().toString('base64url')}`;
}

/**
 * The token that proves a job's lease (a claim, or a job inserted already leased to a worker).
 *
 * @example
 * const token = newLeaseToken(); // 'lease_…'
 */
export function newLeaseToken(): string {
  return newId('lease');
}

/** Crockford base32: its characters sort in the same order as the values they encode. */
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A random id that sorts by creation time: the prefix, 9 base32 characters of the millisecond
 * timestamp, then 16 random bytes (128 bits) in base64url. For the high-volume tables (events,
 * deliveries): new rows land at the end of the primary-key index instead of on a random page, so a
 * commit writes fewer pages.
 *
 * @example
 * newSortableId('dlv') // "dlv_01JD6Q3S8Zk3...": 36 characters
 */
export function newSortableId(prefix: string, now = Date.now()): string {
  let time = '';
  let rest = Math.max(0, Math.floor(now));
  for (let i = 0; i < 9; i++) {
    time = BASE32[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  return `${prefix}_${time}${random16().toString('base64url')}`;
}
