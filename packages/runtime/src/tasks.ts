import type {
  ApiClient,
  IntegrationEnvironment,
  IntegrationTask,
  QueuedTask,
  QueueTaskRequest,
} from '@platform/api-client';

/**
 * `context.integration`: what an integration can ask of the platform about itself. Tasks (docs/tasks.md):
 * `queueTask` stores a task durably on the host, which sends it back as an `integration_task` event
 * (to the `task` handler of `createIntegration`) once `schedule` seconds have passed.
 *
 * @example
 * await context.integration.queueTask({ task: { type: 'sync', payload: { page: 2 } }, schedule: 60 });
 */
export interface IntegrationTasks<Task extends IntegrationTask = IntegrationTask> {
  /** Queues `request.task` for this installation; resolves with the task's id once it is stored. */
  queueTask(request: QueueTaskRequest<Task>): Promise<QueuedTask>;
}

/**
 * The `context.integration` of one invocation: tasks are queued through the host API as the
 * installation (its token), under the integration's name.
 *
 * @example
 * const integration = integrationTasks(api, environment);
 * await integration.queueTask({ task: { type: 'ping', payload: {} } });
 */
export function integrationTasks(api: ApiClient, environment: IntegrationEnvironment): IntegrationTasks {
  return {
    queueTask: (request) => {
      if (!api.integrations) {
        return Promise.reject(new TypeError('queueTask: this API client has no `integrations` group'));
      }
      return api.integrations
        .queueIntegrationTask(environment.integration.name, request)
        .then((response) => response.data);
    },
  };
}
