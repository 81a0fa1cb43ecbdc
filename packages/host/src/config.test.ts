import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('PLATFORM_SQLITE_SYNC', () => {
  it('is full by default: a write is on disk before it is acknowledged', () => {
    expect(loadConfig({}).sqliteSync).toBe('full');
    expect(loadConfig({ PLATFORM_SQLITE_SYNC: '' }).sqliteSync).toBe('full');
  });

  it('takes full or normal, in any case', () => {
    expect(loadConfig({ PLATFORM_SQLITE_SYNC: 'normal' }).sqliteSync).toBe('normal');
    expect(loadConfig({ PLATFORM_SQLITE_SYNC: 'NORMAL' }).sqliteSync).toBe('normal');
    expect(loadConfig({ PLATFORM_SQLITE_SYNC: 'Full' }).sqliteSync).toBe('full');
  });

  it('refuses anything else, naming the variable and the values it takes', () => {
    for (const raw of ['off', '0', 'extra']) {
      expect(() => loadConfig({ PLATFORM_SQLITE_SYNC: raw })).toThrow(ConfigError);
      expect(() => loadConfig({ PLATFORM_SQLITE_SYNC: raw })).toThrow(
        `PLATFORM_SQLITE_SYNC must be one of full, normal; got "${raw}".`,
      );
    }
  });
});

describe('PLATFORM_RETENTION_DAYS', () => {
  it('is 30 by default; 0 keeps everything; anything else names the variable and the range', () => {
    expect(loadConfig({}).retentionDays).toBe(30);
    expect(loadConfig({ PLATFORM_RETENTION_DAYS: '0' }).retentionDays).toBe(0);
    expect(loadConfig({ PLATFORM_RETENTION_DAYS: '365' }).retentionDays).toBe(365);
    for (const raw of ['-1', '1.5', 'forever']) {
      expect(() => loadConfig({ PLATFORM_RETENTION_DAYS: raw })).toThrow(
        `PLATFORM_RETENTION_DAYS must be a whole number from 0 to 36500; got "${raw}".`,
      );
    }
  });
});

describe('PLATFORM_STATS_INTERVAL_MS', () => {
  it('is a minute by default; 0 turns the statistics off; anything else names the variable and the range', () => {
    expect(loadConfig({}).statsIntervalMs).toBe(60_000);
    expect(loadConfig({ PLATFORM_STATS_INTERVAL_MS: '0' }).statsIntervalMs).toBe(0);
    expect(loadConfig({ PLATFORM_STATS_INTERVAL_MS: '200' }).statsIntervalMs).toBe(200);
    expect(() => loadConfig({ PLATFORM_STATS_INTERVAL_MS: '50' })).toThrow(
      'PLATFORM_STATS_INTERVAL_MS must be 0 (no statistics) or from 100 to 3600000 ms; got "50".',
    );
    expect(() => loadConfig({ PLATFORM_STATS_INTERVAL_MS: 'often' })).toThrow(
      'PLATFORM_STATS_INTERVAL_MS must be a whole number from 0 to 3600000; got "often".',
    );
  });
});

describe('PLATFORM_ENDPOINT_DISABLE_AFTER', () => {
  it('is 24 h by default; 0 never disables; a duration; anything else names the variable and how to write it', () => {
    expect(loadConfig({}).endpointDisableAfterMs).toBe(24 * 3_600_000);
    expect(loadConfig({ PLATFORM_ENDPOINT_DISABLE_AFTER: '0' }).endpointDisableAfterMs).toBe(0);
    expect(loadConfig({ PLATFORM_ENDPOINT_DISABLE_AFTER: '3d' }).endpointDisableAfterMs).toBe(3 * 86_400_000);
    expect(loadConfig({ PLATFORM_ENDPOINT_DISABLE_AFTER: '90s' }).endpointDisableAfterMs).toBe(90_000);
    for (const bad of ['24', 'soon', '31d', '0s']) {
      expect(() => loadConfig({ PLATFORM_ENDPOINT_DISABLE_AFTER: bad })).toThrow(
        `PLATFORM_ENDPOINT_DISABLE_AFTER must be 0 (never disable an endpoint) or a duration from 1s to 30d written as a whole number with s, m, h or d (e.g. 24h); got "${bad}".`,
      );
    }
  });
});

describe('PLATFORM_OPERATOR_EVENTS_URL', () => {
  const secret = 'whsec_0123456789abcdefghijklmnop';
  it('is off by default; with a URL it needs a secret of 24 characters or more and an allowed URL', () => {
    expect(loadConfig({}).operatorEvents).toBeUndefined();
    expect(
      loadConfig({
        PLATFORM_OPERATOR_EVENTS_URL: 'https://ops.example.com/hooks',
        PLATFORM_OPERATOR_EVENTS_SECRET: secret,
      }).operatorEvents,
    ).toEqual({ url: 'https://ops.example.com/hooks', secret });
    expect(() => loadConfig({ PLATFORM_OPERATOR_EVENTS_URL: 'https://ops.example.com/hooks' })).toThrow(
      /PLATFORM_OPERATOR_EVENTS_URL is set, so PLATFORM_OPERATOR_EVENTS_SECRET must be too: at least 24 characters/,
    );
    expect(() =>
      loadConfig({
        PLATFORM_OPERATOR_EVENTS_URL: 'http://127.0.0.1:9/ops',
        PLATFORM_OPERATOR_EVENTS_SECRET: secret,
      }),
    ).toThrow(/^PLATFORM_OPERATOR_EVENTS_URL: /);
    expect(
      loadConfig({
        PLATFORM_OPERATOR_EVENTS_URL: 'http://127.0.0.1:9/ops',
        PLATFORM_OPERATOR_EVENTS_SECRET: secret,
        PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
      }).operatorEvents?.url,
    ).toBe('http://127.0.0.1:9/ops');
  });

  it('never puts the secret in its messages', () => {
    try {
      loadConfig({ PLATFORM_OPERATOR_EVENTS_URL: 'ftp://x', PLATFORM_OPERATOR_EVENTS_SECRET: secret });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain(secret);
    }
  });
});

describe('PLATFORM_DELIVERY_CONCURRENCY_PER_INSTALLATION', () => {
  it('defaults to a quarter of the delivery slots, at least 4, at most all of them', () => {
    expect(loadConfig({}).deliveryConcurrencyPerInstallation).toBe(16); // of 64
    for (const [slots, share] of [
      ['100', 25],
      ['8', 4],
      ['3', 3],
      ['1', 1],
    ] as const) {
      expect(loadConfig({ PLATFORM_DELIVERY_CONCURRENCY: slots }).deliveryConcurrencyPerInstallation).toBe(
        share,
      );
    }
  });

  it('takes 1 up to the delivery concurrency; anything else names the variable and the range', () => {
    const env = { PLATFORM_DELIVERY_CONCURRENCY: '32' };
    expect(
      loadConfig({ ...env, PLATFORM_DELIVERY_CONCURRENCY_PER_INSTALLATION: '32' })
        .deliveryConcurrencyPerInstallation,
    ).toBe(32);
    expect(
      loadConfig({ ...env, PLATFORM_DELIVERY_CONCURRENCY_PER_INSTALLATION: '1' })
        .deliveryConcurrencyPerInstallation,
    ).toBe(1);
    for (const raw of ['0', '33', 'all']) {
      expect(() => loadConfig({ ...env, PLATFORM_DELIVERY_CONCURRENCY_PER_INSTALLATION: raw })).toThrow(
        `PLATFORM_DELIVERY_CONCURRENCY_PER_INSTALLATION must be a whole number from 1 to 32; got "${raw}".`,
      );
    }
  });
});

describe('PLATFORM_METRICS_TOKEN', () => {
  it('is unset by default; a token of 16 characters or more is kept', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ PLATFORM_METRICS_TOKEN: 'pmt_0123456789abcdef' }).metricsToken).toBe(
      'pmt_0123456789abcdef',
    );
  });

  it('refuses a short token, one with spaces, or the operator token itself', () => {
    expect(() => loadConfig({ PLATFORM_METRICS_TOKEN: 'short' })).toThrow(
      /PLATFORM_METRICS_TOKEN must be at least 16/,
    );
    expect(() => loadConfig({ PLATFORM_METRICS_TOKEN: 'pmt 0123456789abcdef' })).toThrow(/without spaces/);
    const same = 'pat_same_token_0123456789';
    expect(() => loadConfig({ PLATFORM_METRICS_TOKEN: same, PLATFORM_ADMIN_TOKEN: same })).toThrow(
      /must differ from PLATFORM_ADMIN_TOKEN/,
    );
  });
});

describe('PLATFORM_QUEUE_POLL_MS', () => {
  it('is 1000 by default; takes 50 to 600000; anything else names the variable and the range', () => {
    expect(loadConfig({}).queuePollMs).toBe(1000);
    expect(loadConfig({ PLATFORM_QUEUE_POLL_MS: '60000' }).queuePollMs).toBe(60_000);
    for (const raw of ['10', '1.5', 'soon', '600001']) {
      expect(() => loadConfig({ PLATFORM_QUEUE_POLL_MS: raw })).toThrow(
        `PLATFORM_QUEUE_POLL_MS must be a whole number from 50 to 600000; got "${raw}".`,
      );
    }
  });
});

describe('PLATFORM_CHECK_TRANSACTIONS', () => {
  it('is on under NODE_ENV test or development, off otherwise; 1 or 0 decide; anything else is refused', () => {
    expect(loadConfig({}).checkTransactions).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).checkTransactions).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).checkTransactions).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).checkTransactions).toBe(true);
    expect(loadConfig({ PLATFORM_CHECK_TRANSACTIONS: '1' }).checkTransactions).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', PLATFORM_CHECK_TRANSACTIONS: '0' }).checkTransactions).toBe(false);
    expect(() => loadConfig({ PLATFORM_CHECK_TRANSACTIONS: 'yes' })).toThrow(
      'PLATFORM_CHECK_TRANSACTIONS must be 1 (on) or 0 (off); got "yes".',
    );
  });
});

describe('PLATFORM_ACCEPT_GATHER_MS', () => {
  it('is 2 by default; takes 0 (off) to 50; anything else names the variable and the range', () => {
    expect(loadConfig({}).acceptGatherMs).toBe(2);
    expect(loadConfig({ PLATFORM_ACCEPT_GATHER_MS: '0' }).acceptGatherMs).toBe(0);
    expect(loadConfig({ PLATFORM_ACCEPT_GATHER_MS: '50' }).acceptGatherMs).toBe(50);
    for (const raw of ['-1', '0.5', 'soon', '51']) {
      expect(() => loadConfig({ PLATFORM_ACCEPT_GATHER_MS: raw })).toThrow(
        `PLATFORM_ACCEPT_GATHER_MS must be a whole number from 0 to 50; got "${raw}".`,
      );
    }
  });
});

describe('PostgreSQL pool settings (PLATFORM_PG_*)', () => {
  it('default to 10 connections, 5 s to get one, 30 s per statement', () => {
    expect(loadConfig({}).pg).toEqual({ poolSize: 10, connectTimeoutMs: 5000, statementTimeoutMs: 30_000 });
  });

  it('take whole numbers in range; a statement timeout of 0 means no limit', () => {
    expect(
      loadConfig({
        PLATFORM_PG_POOL_SIZE: '40',
        PLATFORM_PG_CONNECT_TIMEOUT_MS: '1500',
        PLATFORM_PG_STATEMENT_TIMEOUT_MS: '0',
      }).pg,
    ).toEqual({ poolSize: 40, connectTimeoutMs: 1500, statementTimeoutMs: 0 });
    expect(loadConfig({ PLATFORM_PG_STATEMENT_TIMEOUT_MS: '100' }).pg.statementTimeoutMs).toBe(100);
  });

  it('refuse anything else, naming the variable and the range', () => {
    for (const raw of ['0', '-1', '2.5', 'ten', '1001']) {
      expect(() => loadConfig({ PLATFORM_PG_POOL_SIZE: raw })).toThrow(
        `PLATFORM_PG_POOL_SIZE must be a whole number from 1 to 1000; got "${raw}".`,
      );
    }
    for (const raw of ['0', '99', '5s']) {
      expect(() => loadConfig({ PLATFORM_PG_CONNECT_TIMEOUT_MS: raw })).toThrow(
        `PLATFORM_PG_CONNECT_TIMEOUT_MS must be a whole number from 100 to 600000; got "${raw}".`,
      );
    }
    for (const raw of ['1', '99']) {
      expect(() => loadConfig({ PLATFORM_PG_STATEMENT_TIMEOUT_MS: raw })).toThrow(
        `PLATFORM_PG_STATEMENT_TIMEOUT_MS must be 0 (no limit) or from 100 to 86400000 ms; got "${raw}".`,
      );
    }
    expect(() => loadConfig({ PLATFORM_PG_STATEMENT_TIMEOUT_MS: '-5' })).toThrow(
      'PLATFORM_PG_STATEMENT_TIMEOUT_MS must be a whole number from 0 to 86400000; got "-5".',
    );
  });
});

describe('PLATFORM_CONTENT_PORT and PLATFORM_CONTENT_URL (the content origin)', () => {
  it('defaults to the port after PORT (a free port when PORT is 0), and no URL of its own', () => {
    expect(loadConfig({}).contentPort).toBe(8081);
    expect(loadConfig({ PORT: '9000' }).contentPort).toBe(9001);
    expect(loadConfig({ PORT: '0' }).contentPort).toBe(0);
    expect(loadConfig({ PLATFORM_CONTENT_PORT: '7000' }).contentPort).toBe(7000);
    expect(loadConfig({}).contentUrl).toBeUndefined();
  });

  it('refuses the API port itself, and a content URL on the API origin', () => {
    expect(() => loadConfig({ PORT: '9000', PLATFORM_CONTENT_PORT: '9000' })).toThrow(
      /PLATFORM_CONTENT_PORT must differ from PORT \(9000\)/,
    );
    expect(() =>
      loadConfig({
        PLATFORM_PUBLIC_URL: 'https://platform.example.com',
        PLATFORM_CONTENT_URL: 'https://platform.example.com/content/',
      }),
    ).toThrow(/PLATFORM_CONTENT_URL must be on another origin than PLATFORM_PUBLIC_URL/);
    expect(() => loadConfig({ PLATFORM_CONTENT_URL: 'content.example.com' })).toThrow(/absolute http/);
    expect(
      loadConfig({
        PLATFORM_PUBLIC_URL: 'https://platform.example.com',
        PLATFORM_CONTENT_URL: 'https://content.example.net/',
      }).contentUrl,
    ).toBe('https://content.example.net');
  });
});

describe('PLATFORM_INVOCATION_MAX_* (limits of one call into an integration)', () => {
  it('has documented defaults: 10 MiB response, 10 MiB request, 50 subrequests, 16 KiB of logs', () => {
    expect(loadConfig({}).invocationLimits).toEqual({
      responseBytes: 10_485_760,
      requestBytes: 10_485_760,
      subrequests: 50,
      logBytes: 16_384,
    });
  });

  it('takes each from its variable', () => {
    const limits = loadConfig({
      PLATFORM_INVOCATION_MAX_RESPONSE_BYTES: '2048',
      PLATFORM_INVOCATION_MAX_REQUEST_BYTES: '4096',
      PLATFORM_INVOCATION_MAX_SUBREQUESTS: '0',
      PLATFORM_INVOCATION_MAX_LOG_BYTES: '100',
    }).invocationLimits;
    expect(limits).toEqual({ responseBytes: 2048, requestBytes: 4096, subrequests: 0, logBytes: 100 });
  });

  it.each([
    ['PLATFORM_INVOCATION_MAX_RESPONSE_BYTES', '10MB', /from 1024 to 1073741824; got "10MB"/],
    ['PLATFORM_INVOCATION_MAX_RESPONSE_BYTES', '100', /from 1024/],
    ['PLATFORM_INVOCATION_MAX_REQUEST_BYTES', '40000000', /from 1024 to 33554432/],
    ['PLATFORM_INVOCATION_MAX_SUBREQUESTS', '-1', /from 0 to 10000/],
    ['PLATFORM_INVOCATION_MAX_LOG_BYTES', '1.5', /whole number/],
  ])('refuses %s=%s, naming the variable and the range', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('subscriber portal and token cache settings', () => {
  it('lets no page frame the portal by default, and reads a space or comma separated list of origins', () => {
    expect(loadConfig({}).portalFrameAncestors).toEqual([]);
    expect(loadConfig({ PLATFORM_PORTAL_FRAME_ANCESTORS: '' }).portalFrameAncestors).toEqual([]);
    expect(
      loadConfig({
        PLATFORM_PORTAL_FRAME_ANCESTORS:
          'https://Docs.Example.com/, http://127.0.0.1:3000  https://*.example.org',
      }).portalFrameAncestors,
    ).toEqual(['https://docs.example.com', 'http://127.0.0.1:3000', 'https://*.example.org']);
  });

  it.each([
    ['https://docs.example.com/embed', 'https://docs.example.com/embed'],
    ["'self'", "'self'"],
    ['*', '*'],
    ['docs.example.com', 'docs.example.com'],
    ['ftp://docs.example.com', 'ftp://docs.example.com'],
    ["https://a.example.com;script-src 'unsafe-inline'", 'script-src'],
  ])('refuses PLATFORM_PORTAL_FRAME_ANCESTORS with %s, naming the entry', (value, entry) => {
    expect(() => loadConfig({ PLATFORM_PORTAL_FRAME_ANCESTORS: value })).toThrow(
      /PLATFORM_PORTAL_FRAME_ANCESTORS must list origins \(scheme, host and port only/,
    );
    expect(() => loadConfig({ PLATFORM_PORTAL_FRAME_ANCESTORS: value })).toThrow(entry);
  });

  it('caches tokens for 5 s by default; 0 reads them at every request', () => {
    expect(loadConfig({}).tokenCacheMs).toBe(5000);
    expect(loadConfig({ PLATFORM_TOKEN_CACHE_MS: '0' }).tokenCacheMs).toBe(0);
    expect(() => loadConfig({ PLATFORM_TOKEN_CACHE_MS: '-1' })).toThrow(
      /PLATFORM_TOKEN_CACHE_MS must be a whole number from 0 to 3600000/,
    );
  });
});

describe('PLATFORM_SECRETS_KEY, PLATFORM_SECRETS_KEY_FILE, PLATFORM_SECRETS_OLD_KEYS', () => {
  const key = Buffer.alloc(32, 1).toString('base64url');
  const old = Buffer.alloc(32, 2).toString('hex');

  it('default: no key given, the key file in the data folder', () => {
    const config = loadConfig({ PLATFORM_DATA_DIR: '/var/lib/platform' });
    expect(config.secretsKey).toEqual({
      key: undefined,
      keyFile: '/var/lib/platform/secrets-key',
      oldKeys: [],
    });
  });

  it('takes a key, a key file elsewhere and a comma-separated list of old keys', () => {
    const config = loadConfig({
      PLATFORM_SECRETS_KEY: key,
      PLATFORM_SECRETS_KEY_FILE: '/run/secrets/platform-key',
      PLATFORM_SECRETS_OLD_KEYS: ` ${old}, ,${key}`,
    });
    expect(config.secretsKey).toEqual({ key, keyFile: '/run/secrets/platform-key', oldKeys: [old, key] });
  });

  it('refuses a key that is not 32 bytes, naming the variable, never echoing the value', () => {
    expect(() => loadConfig({ PLATFORM_SECRETS_KEY: 'hunter2-hunter2' })).toThrow(ConfigError);
    expect(() => loadConfig({ PLATFORM_SECRETS_KEY: 'hunter2-hunter2' })).toThrow(
      /^PLATFORM_SECRETS_KEY is not a secrets key: it must be 32 random bytes written as base64/,
    );
    expect(() => loadConfig({ PLATFORM_SECRETS_KEY: 'hunter2-hunter2' })).not.toThrow(/hunter2/);
    expect(() => loadConfig({ PLATFORM_SECRETS_OLD_KEYS: `${old},short` })).toThrow(
      /^PLATFORM_SECRETS_OLD_KEYS \(key #2\) is not a secrets key/,
    );
  });
});
