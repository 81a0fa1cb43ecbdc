// The routing epoch (migration 12, storage/README.md "Routing epoch"): one row that triggers move on at
// every change of installations, integrations and webhook secrets. Its SQL and its reading, in one place.
import { StorageError } from '../errors.js';
import { num } from '../rows.js';
import type { Row } from '../sql.js';

/** The current routing epoch as a scalar subquery, parentheses included: usable wherever a value is. */
export const ROUTING_EPOCH = '(SELECT epoch FROM routing_epoch WHERE id = 1)';

/** The routing epoch in `column` of `row`; `internal` when the row, or the epoch, is missing. */
export function epochOf(row: Row | undefined, column: string): number {
  const value = row?.[column];
  if (value === undefined || value === null)
    throw new StorageError('internal', 'the routing_epoch row is missing (created by migration 12)');
  return num(row as Row, column);
}
