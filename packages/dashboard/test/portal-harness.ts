import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { type Backend, createTestDatabase, type TestDatabase } from '../../host/test/backends.js';
import {
  ADMIN_TOKEN,
  type Receiver,
  startReceiver,
  startTestHost,
  type TestHost,
} from '../../host/test/helpers.js';

export { ADMIN_TOKEN };

/** A receiver whose answer status the test changes as it goes (200 until told otherwise). */
export interface ScriptedReceiver extends Receiver {
  /** The status the next requests are answered with. */
  status: number;
}

/**
 * A webhook receiver on 127.0.0.1 answering `status` (200, or what the test set since).
 * @example const r = await startScriptedReceiver(); r.status = 410; // the next deliveries fail
 */
export async function startScriptedReceiver(): Promise<ScriptedReceiver> {
  const state = { status: 200 };
  const receiver = await startReceiver((_request, res) =>
    res
      .writeHead(state.status, { 'content-type': 'application/json' })
      .end(state.status < 300 ? '{"received":true}' : '{"error":"gone for maintenance"}'),
  );
  // an accessor (Object.assign would copy the getter's value, not the property)
  return Object.defineProperty(receiver, 'status', {
    get: () => state.status,
    set: (value: number) => {
      state.status = value;
    },
    enumerable: true,
  }) as ScriptedReceiver;
}

/** A portal session as `POST /v1/portal/sessions` answers it. */
export interface OpenedSession {
  id: string;
  url: string;
  token: string;
  expiresAt: string;
}

/** A host on one backend, with what the portal tests need of it. */
export interface PortalHost {
  t: TestHost;
  backend: Backend;
  /** The API's origin (`http://127.0.0.1:<port>`) and the content origin serving `/portal/`. */
  apiOrigin: string;
  contentOrigin: string;
  /** Installs the webhook integration into a space, selecting `space_content_updated`. */
  installWebhook(space: string, url: string): Promise<{ id: string }>;
  /** Opens a portal session for one installation (operator token). */
  openSession(installation: string): Promise<OpenedSession>;
  /** Posts `space_content_updated` for `space` with the operator token; resolves with its event id. */
  postEvent(space: string): Promise<string>;
  /** Makes a session expired in the database itself (as time passing would). */
  expireSession(id: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a host on `backend` (private targets allowed; tokens read at every request, so that an expiry
 * written into the database applies at once) with `env` added.
 *
 * @example
 * const h = await startPortalHost('sqlite', { PLATFORM_PORTAL_FRAME_ANCESTORS: 'http://127.0.0.1:9' });
 */
export async function startPortalHost(
  backend: Backend,
  env: Record<string, string> = {},
): Promise<PortalHost> {
  const database: TestDatabase | null = backend === 'postgres' ? await createTestDatabase() : null;
  const t = await startTestHost(
    {
      ...(database ? { DATABASE_URL: database.url } : {}),
      PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
      PLATFORM_TOKEN_CACHE_MS: '0',
      PLATFORM_QUEUE_POLL_MS: '200',
      ...env,
    },
    backend,
  );
  const ok = <T>(answer: { status: number; body: T }, status: number, what: string): T => {
    if (answer.status !== status)
      throw new Error(`${what}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  return {
    t,
    backend,
    apiOrigin: new URL(t.host.url).origin,
    contentOrigin: new URL(t.host.contentUrl).origin,
    async installWebhook(space, url) {
      return ok(
        await t.api<{ id: string }>('POST', '/v1/installations', {
          integration: 'webhook',
          space,
          configuration: { url, space_content_updated: true },
        }),
        201,
        'installing the webhook',
      );
    },
    async openSession(installation) {
      return ok(
        await t.api<OpenedSession>('POST', '/v1/portal/sessions', { installation }),
        201,
        'opening a portal session',
      );
    },
    async postEvent(space) {
      const accepted = ok(
        await t.api<{ eventId: string }>('POST', '/v1/events', {
          type: 'space_content_updated',
          spaceId: space,
          revisionId: `rev-${Date.now()}`,
        }),
        202,
        'posting an event',
      );
      return accepted.eventId;
    },
    async expireSession(id) {
      const past = Date.now() - 60_000;
      if (database) {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          await client.query('UPDATE portal_sessions SET expires_at = $1 WHERE id = $2', [past, id]);
        } finally {
          await client.end();
        }
        return;
      }
      const db = new Database(join(t.dataDir, 'platform.db'), { timeout: 10_000 });
      try {
        db.prepare('UPDATE portal_sessions SET expires_at = ? WHERE id = ?').run(past, id);
      } finally {
        db.close();
      }
    },
    async close() {
      await t.close();
      await database?.drop();
    },
  };
}
