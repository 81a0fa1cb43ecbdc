// `platform check` runs offline, but an integration that queues a task (docs/tasks.md) calls the host's own
// API: check answers that call as the host would (the task is accepted, and not run), so an integration
// that queues a task at set-up passes.
import { testEnvironment } from '@platform/runtime/testing';

/** `POST {apiEndpoint}/v1/integrations/{name}/tasks`, on the API address check gives integrations. */
const TASK_PATH = /^\/v1\/integrations\/[^/]+\/tasks\/?$/;

/**
 * The answer of check to an integration's request, when it queues a task (a 201 like the host's, with
 * a sample id); `undefined` for every other request (answered offline).
 *
 * @example
 * ```ts
 * taskStandIn({ method: 'POST', url: 'http://127.0.0.1:8080/v1/integrations/x/tasks' })?.status; // 201
 * ```
 */
export function taskStandIn(request: {
  method: string;
  url: string;
}): { body: string; status: number; headers: Record<string, string> } | undefined {
  if (request.method.toUpperCase() !== 'POST') return undefined;
  const api = new URL(testEnvironment().apiEndpoint);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return undefined;
  }
  if (url.origin !== api.origin || !TASK_PATH.test(url.pathname)) return undefined;
  return {
    body: JSON.stringify({ id: 'evt_check_task', runAt: new Date().toISOString() }),
    status: 201,
    headers: { 'content-type': 'application/json' },
  };
}
