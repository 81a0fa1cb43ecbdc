import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../errors.js';
import type { Io } from '../io.js';
import { configPath, readLogin, writeLogin } from './config-file.js';
import { writeDevSession } from './dev-session.js';
import { resolveTarget } from './target.js';

function io(env: Record<string, string>, cwd = mkdtempSync(join(tmpdir(), 'platform-cwd-'))): Io {
  return { stdout: () => {}, stderr: () => {}, stdoutIsTTY: false, stderrIsTTY: false, env, cwd };
}

const home = () => ({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'platform-xdg-')) });

describe('config file', () => {
  it('lives under XDG_CONFIG_HOME, else ~/.config, and is written with mode 0600', () => {
    expect(configPath({ XDG_CONFIG_HOME: '/x' })).toBe('/x/platform/config.json');
    expect(configPath({ HOME: '/home/ada' })).toBe('/home/ada/.config/platform/config.json');
    const env = home();
    const file = writeLogin(env, { url: 'http://h:1', token: 'pat_a' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readLogin(env)).toEqual({ url: 'http://h:1', token: 'pat_a' });
    writeLogin(env, { token: 'pat_b' });
    expect(readLogin(env)).toEqual({ url: 'http://h:1', token: 'pat_b' });
  });
});

describe('resolveTarget', () => {
  it('prefers flags, then the environment, then the saved login', () => {
    const env = home();
    writeLogin(env, { url: 'http://saved:1', token: 'pat_saved' });
    expect(resolveTarget(io(env), {})).toMatchObject({ url: 'http://saved:1', token: 'pat_saved' });
    const withEnv = { ...env, PLATFORM_URL: 'http://env:2/', PLATFORM_TOKEN: 'pat_env' };
    expect(resolveTarget(io(withEnv), {})).toMatchObject({
      url: 'http://env:2',
      token: 'pat_env',
      urlSource: 'PLATFORM_URL',
    });
    expect(resolveTarget(io(withEnv), { url: 'http://flag:3', token: 'pat_flag' })).toMatchObject({
      url: 'http://flag:3',
      token: 'pat_flag',
      tokenSource: '--token',
    });
  });

  it('uses a running `platform dev` of the current folder, with its token file', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'platform-dev-'));
    mkdirSync(join(cwd, '.platform'));
    writeFileSync(join(cwd, '.platform/admin-token'), 'pat_dev_token\n');
    writeDevSession(cwd, {
      url: 'http://127.0.0.1:9999',
      tokenFile: join(cwd, '.platform/admin-token'),
      integration: 'x',
      installationId: 'inst_1',
      space: 'space_dev',
      pid: process.pid,
    });
    const target = resolveTarget(io(home(), cwd), {});
    expect(target).toMatchObject({ url: 'http://127.0.0.1:9999', token: 'pat_dev_token' });
    expect(target.session?.installationId).toBe('inst_1');
    // a session whose process is gone is ignored
    writeDevSession(cwd, { ...target.session!, pid: 2 ** 22 + 12345 });
    expect(() => resolveTarget(io(home(), cwd), {})).toThrow(/no host to talk to/);
  });

  it('names every way to fix a missing URL or token', () => {
    const error = (() => {
      try {
        resolveTarget(io({ ...home(), PLATFORM_URL: 'http://h:1' }), {});
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).message).toMatch(
      /no token for http:\/\/h:1: pass --token, set PLATFORM_TOKEN or run `platform login/,
    );
    expect((error as CliError).exitCode).toBe(2);
  });
});
