import { createIntegration, type RuntimeContext, type RuntimeEnvironment } from '@platform/runtime';

/** The one task this integration queues: a reminder, with the time it was queued. */
export interface ReminderTask {
  type: 'remind';
  payload: { message: string; queuedAt: number };
}

/** The installation's settings (`configurations.account` of the manifest). */
interface Settings {
  message?: string;
  delay_seconds?: number;
}

type Context = RuntimeContext<RuntimeEnvironment<Settings>, ReminderTask>;

/** The delay of a reminder: the configured one, whole seconds, 5 when unset. */
export function delayOf(settings: Settings): number {
  const delay = settings.delay_seconds;
  return typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 ? Math.round(delay) : 5;
}

/**
 * Example integration (docs/tasks.md): each set-up queues a reminder task `delay_seconds` later; the host
 * keeps it in its durable queue (a restart in between loses nothing) and sends it back to `task`.
 */
export default createIntegration<Context>({
  events: {
    installation_setup: async (event, context) => {
      const settings = event.configuration as Settings;
      const queued = await context.integration.queueTask({
        task: { type: 'remind', payload: { message: settings.message ?? 'hello', queuedAt: Date.now() } },
        schedule: delayOf(settings),
      });
      context.logger.info(`queued reminder ${queued.id}, due ${queued.runAt}`);
    },
  },
  task: async (task, context) => {
    if (task.type !== 'remind') throw new Error(`unknown task type "${task.type}"`);
    const seconds = Math.round((Date.now() - task.payload.queuedAt) / 1000);
    context.logger.info(`reminder: ${task.payload.message} (queued ${seconds} s ago)`);
  },
});
