// How `GET /v1/status` reads to a person, shared by `platform status` (CLI) and the dashboard's
// Host page, so both say the same thing. Plain functions over the answer's fields (its type is the
// host's `HostStatus`, `@platform/host/api`).

/** The fields of one queue of `GET /v1/status` that these helpers read. */
export interface QueueFigures {
  queued: number;
  due: number;
  held: number;
  running: number;
  oldestDueAgeSeconds: number;
}

/**
 * How far behind a queue is: `'none'`, seconds under a minute (one decimal), minutes above.
 *
 * @example
 * formatLag(0); // 'none'
 * formatLag(2.46); // '2.5 s'
 * formatLag(185); // '3 min'
 */
export function formatLag(seconds: number): string {
  if (seconds <= 0) return 'none';
  return seconds < 60 ? `${seconds.toFixed(1)} s` : `${Math.round(seconds / 60)} min`;
}

/**
 * The note on deliveries held for slow endpoints, or `''` when none is.
 *
 * @example
 * heldNote({ held: 3 }); // '3 held for slow endpoints'
 */
export function heldNote(queue: Pick<QueueFigures, 'held'>): string {
  return queue.held ? `${queue.held} held for slow endpoints` : '';
}

/**
 * One line about a queue: waiting (and held), due, in flight, how far behind.
 *
 * @example
 * describeQueue({ queued: 5, due: 2, held: 1, running: 3, oldestDueAgeSeconds: 1.2 });
 * // '5 waiting (1 held for slow endpoints), 2 due, 3 in flight, 1.2 s behind'
 */
export function describeQueue(queue: QueueFigures): string {
  const held = heldNote(queue);
  const lag = formatLag(queue.oldestDueAgeSeconds);
  return `${queue.queued} waiting${held ? ` (${held})` : ''}, ${queue.due} due, ${queue.running} in flight, ${
    lag === 'none' ? 'not behind' : `${lag} behind`
  }`;
}

/**
 * Whose a slow endpoint is: its installation's integration and place.
 *
 * @example
 * slowEndpointPlace({ integration: 'webhook', target: 'space', targetId: 'docs' }); // 'webhook in space docs'
 */
export function slowEndpointPlace(endpoint: {
  integration: string;
  target: string;
  targetId: string | null;
}): string {
  return `${endpoint.integration} in ${endpoint.target}${endpoint.targetId ? ` ${endpoint.targetId}` : ''}`;
}
