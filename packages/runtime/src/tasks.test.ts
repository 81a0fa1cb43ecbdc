import type { IntegrationTask } from '@platform/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegration } from './integration';
import { type LoopbackServer, listenOnLoopback } from './test-support';
import { envelopeRequest, testEnvironment } from './testing';

/** A real host API stand-in on loopback: records each request, answers a queued task. */
let api: LoopbackServer;

beforeAll(async () => {
  api = await listenOnLoopback((_req, _body, res) => {
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'evt_task1', runAt: '2026-01-01T00:00:30.000Z' }));
  });
});
afterAll(() => api.close());

describe('integration tasks in the runtime', () => {
  it('queueTask posts the task to the host API as the installation, under the integration name', async () => {
    let answer: unknown;
    const integration = createIntegration({
      events: {
        space_view: async (_event, context) => {
          answer = await context.integration.queueTask({
            task: { type: 'sync', payload: { n: 1 } },
            schedule: 30,
          });
        },
      },
    });
    const response = await integration.fetch(
      envelopeRequest(
        { type: 'space_view', eventId: 'e1', spaceId: 's' },
        { environment: testEnvironment({ apiEndpoint: api.url }) },
      ),
    );
    expect(response.status).toBe(200);
    expect(answer).toEqual({ id: 'evt_task1', runAt: '2026-01-01T00:00:30.000Z' });
    const posted = api.seen.at(-1);
    expect({ ...posted, body: JSON.parse(posted?.body ?? '') }).toEqual({
      method: 'POST',
      url: '/v1/integrations/hello/tasks',
      authorization: 'Bearer pit_test_token',
      body: { task: { type: 'sync', payload: { n: 1 } }, schedule: 30 },
    });
  });

  it('hands an integration_task event to the `task` handler; a throw answers 500 (retried by the host)', async () => {
    const got: IntegrationTask[] = [];
    const integration = createIntegration({
      task: async (task) => {
        got.push(task);
        if (task.type === 'fail') throw new Error('task failed');
      },
    });
    const event = (type: string) => ({
      type: 'integration_task',
      eventId: `evt_${type}`,
      taskId: `evt_${type}`,
      installationId: 'inst_test',
      task: { type, payload: { page: 2 } },
    });
    expect((await integration.fetch(envelopeRequest(event('ok')))).status).toBe(200);
    expect((await integration.fetch(envelopeRequest(event('fail')))).status).toBe(500);
    expect(got).toEqual([
      { type: 'ok', payload: { page: 2 } },
      { type: 'fail', payload: { page: 2 } },
    ]);
  });

  it('prefers events.integration_task, which gets the whole event', async () => {
    const ids: string[] = [];
    const integration = createIntegration({
      task: async () => {
        throw new Error('not this one');
      },
      events: { integration_task: async (event) => void ids.push(event.taskId) },
    });
    const res = await integration.fetch(
      envelopeRequest({
        type: 'integration_task',
        eventId: 'evt_1',
        taskId: 'evt_1',
        installationId: 'inst_test',
        task: { type: 'x', payload: {} },
      }),
    );
    expect(res.status).toBe(200);
    expect(ids).toEqual(['evt_1']);
  });
});
