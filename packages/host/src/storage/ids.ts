import { randomBytes } from 'node:crypto';

/**
 * A random id with a prefix: 16 random bytes in base64url (128 bits).
 *
 * @example
 * newId('inst') // "inst_Zk3...": 27 characters
 */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}
