import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import { captureLogs } from '../services/test-support.js';
import { StorageError } from '../storage/index.js';
import { errorAnswer } from './error-response.js';

const where = { method: 'POST', path: '/v1/events' };

describe('errorAnswer', () => {
  it('storage that cannot write durably now is a 503 asking for a retry, logged, details kept out', () => {
    const { lines: logged, logger } = captureLogs();
    const cause = new StorageError(
      'unavailable',
      'SQLite: could not sync the log to disk (EIO at /data/p.db-wal); retry',
    );
    const { status, body, headers } = errorAnswer(cause, logger, where);
    expect(status).toBe(503);
    expect(body.error.code).toBe('unavailable');
    expect(body.error.message).toMatch(/retry the same request/);
    expect(headers).toEqual({ 'retry-after': '2' }); // a few seconds: enough for a restart to begin
    expect(JSON.stringify(body)).not.toContain('p.db-wal'); // no file paths or driver text to the client
    // The operator sees the cause in the log.
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      msg: 'storage unavailable',
      path: '/v1/events',
      err: { code: 'unavailable' },
    });
    const err = logged[0]?.err as { message?: string } | undefined;
    expect(err?.message).toContain('p.db-wal');
  });

  it('other storage errors stay a generic 500; client errors keep their own status', () => {
    const { logger } = captureLogs();
    const internal = errorAnswer(
      new StorageError('internal', 'SQLite: disk image is malformed'),
      logger,
      where,
    );
    expect(internal.status).toBe(500);
    expect(internal.headers).toBeUndefined(); // no Retry-After: the same request would fail the same way
    expect(JSON.stringify(internal.body)).not.toContain('malformed');
    expect(errorAnswer(new HttpError(404, 'not_found', 'No such installation.'), logger, where).status).toBe(
      404,
    );
  });
});
