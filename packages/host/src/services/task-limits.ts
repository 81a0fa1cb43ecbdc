// The limits of integration tasks (docs/tasks.md "Limits"): a leaf module, so the API schemas import them
// without loading the service.

/**
 * The longest delay a task may ask for, in seconds: one week. Longer waits chain tasks (docs/tasks.md).
 * @example MAX_TASK_SCHEDULE_S; // 604800
 */
export const MAX_TASK_SCHEDULE_S = 7 * 24 * 60 * 60;

/**
 * The largest task (type and payload), serialized as JSON, in bytes.
 * @example MAX_TASK_BYTES; // 65536
 */
export const MAX_TASK_BYTES = 64 * 1024;
