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
