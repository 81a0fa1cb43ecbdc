import { describe, expect, it } from 'vitest';
import { customHeaderProblems } from './headers.js';
import { endpointSettingProblems, endpointSettings, MASKED, separateCredentials } from './settings.js';

describe('custom headers', () => {
  it('accepts tokens and names each refused header', () => {
    expect(customHeaderProblems({ 'X-Api-Key': 'k', "x!#$%&'*+-.^_`|~": 'v' })).toEqual([]);
    for (const name of [
      'Host',
      'content-length',
      'Keep-Alive',
      'TE',
      'Upgrade',
      'Proxy-Authorization',
      'X-Platform-Event-Id',
      'webhook-id',
      'Webhook-Signature',
      'webhook-timestamp',
    ]) {
      const [problem] = customHeaderProblems({ [name]: 'v' });
      expect(problem, name).toContain(`header "${name}"`);
    }
    expect(customHeaderProblems({ 'X-A': 'v\n' })[0]).toContain('CR or LF');
    expect(customHeaderProblems({ 'X-A': 'v\r' })[0]).toContain('CR or LF');
    expect(customHeaderProblems({ 'X-\nA': 'v' })[0]).toContain('CR or LF');
    expect(customHeaderProblems({ 'X-A': 'v\u0000' })[0]).toContain('control characters');
    expect(customHeaderProblems({ 'X-A': 'a', 'x-a': 'b' })[0]).toContain('case-insensitive');
    expect(customHeaderProblems({ 'a:b': 'v' })[0]).toContain('RFC 7230 token');
  });

  it('refuses an Authorization header together with auth', () => {
    const problems = endpointSettingProblems({
      headers: { authorization: 'x' },
      auth: { type: 'bearer', token: 't' },
    });
    expect(problems).toEqual([
      { key: 'headers', message: expect.stringContaining('either an Authorization header or auth') },
    ]);
    expect(endpointSettingProblems({ headers: { authorization: 'ApiKey x' } })).toEqual([]);
  });

  it('names the path of a wrong auth value', () => {
    expect(
      endpointSettingProblems({ auth: { type: 'basic', username: 'a:b', password: 'p' } })[0]?.message,
    ).toBe('auth.username: username may not contain ":"');
    expect(endpointSettingProblems({ auth: { type: 'bearer', token: 'a\nb' } })[0]?.message).toContain(
      'auth.token',
    );
    expect(endpointSettingProblems({ rate_limit: 0.5 })[0]?.message).toContain('rate_limit');
  });
});

describe('separateCredentials', () => {
  it('masks the values, keeps a masked one from what is stored, and reads them back', () => {
    const first = separateCredentials(
      { url: 'u', headers: { 'X-K': 'k1' }, auth: { type: 'bearer', token: 't1' } },
      null,
    );
    expect(first.configuration).toEqual({
      url: 'u',
      headers: { 'X-K': MASKED },
      auth: { type: 'bearer', token: MASKED },
    });
    expect(first.credentials).toEqual({ headers: { 'X-K': 'k1' }, auth: 't1' });
    const second = separateCredentials(
      { url: 'u', headers: { 'X-K': MASKED, 'X-L': 'l' }, auth: { type: 'bearer', token: MASKED } },
      { configuration: first.configuration, credentials: first.credentials },
    );
    expect(second.problems).toEqual([]);
    expect(second.credentials).toEqual({ headers: { 'X-K': 'k1', 'X-L': 'l' }, auth: 't1' });
    expect(endpointSettings(second.configuration, second.credentials)).toEqual({
      headers: { 'X-K': 'k1', 'X-L': 'l' },
      auth: { type: 'bearer', token: 't1' },
      rateLimit: null,
    });
  });

  it('a masked value of another auth type, or of a header not stored, is a problem', () => {
    const stored = separateCredentials({ auth: { type: 'bearer', token: 't1' } }, null);
    const switched = separateCredentials(
      { auth: { type: 'basic', username: 'u', password: MASKED } },
      {
        configuration: stored.configuration,
        credentials: stored.credentials,
      },
    );
    expect(switched.problems[0]?.message).toContain('auth.password');
    expect(separateCredentials({ headers: { 'X-New': MASKED } }, null).problems[0]?.message).toContain(
      'headers.X-New',
    );
  });
});
