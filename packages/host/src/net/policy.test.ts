import { describe, expect, it } from 'vitest';
import { InvalidAddressPolicyError } from './errors.js';
import { parseAllowPrivateTargets } from './policy.js';
import { normalizeHostname, validateWebhookUrl } from './url.js';

describe('parseAllowPrivateTargets', () => {
  it.each([undefined, '', '  ', '0', 'false', 'FALSE'])('%j blocks every private target', (value) => {
    const policy = parseAllowPrivateTargets(value);
    expect(policy.mode).toBe('block');
    expect(policy.allowsPrivate).toBe(false);
    expect(policy.allows('127.0.0.1')).toBe(false);
    expect(policy.allows('::ffff:127.0.0.1')).toBe(false);
    expect(policy.allows('10.0.0.1')).toBe(false);
    expect(policy.allows('8.8.8.8')).toBe(true);
    expect(policy.refusal('127.0.0.1')).toBe('loopback');
  });

  it.each(['1', 'true', ' TRUE '])('%j allows every target', (value) => {
    const policy = parseAllowPrivateTargets(value);
    expect(policy.mode).toBe('allow-all');
    expect(policy.allows('127.0.0.1')).toBe(true);
    expect(policy.allows('fd00::1')).toBe(true);
    expect(policy.allows('8.8.8.8')).toBe(true);
  });

  it('a CIDR list allows those private ranges only', () => {
    const policy = parseAllowPrivateTargets('127.0.0.0/8, 10.1.0.0/16,::1/128,192.168.5.5');
    expect(policy.mode).toBe('allow-list');
    expect(policy.cidrs).toEqual(['127.0.0.0/8', '10.1.0.0/16', '::1/128', '192.168.5.5/32']);
    expect(policy.allows('127.0.0.1')).toBe(true);
    expect(policy.allows('::ffff:127.0.0.1')).toBe(true);
    expect(policy.allows('::1')).toBe(true);
    expect(policy.allows('10.1.200.3')).toBe(true);
    expect(policy.allows('10.2.0.1')).toBe(false);
    expect(policy.allows('192.168.5.5')).toBe(true);
    expect(policy.allows('192.168.5.6')).toBe(false);
    expect(policy.allows('169.254.169.254')).toBe(false);
    expect(policy.refusal('10.2.0.1')).toBe('private (RFC 1918), not in the allow-list');
    expect(policy.allows('1.1.1.1')).toBe(true);
    expect(policy.allows('not-an-ip')).toBe(false);
  });

  it.each([
    ['10.0.0.0/33', '10.0.0.0/33', 'prefix length must be 0-32'],
    ['127.0.0.0/8,nope', 'nope', 'not an IP address'],
    ['::1/129', '::1/129', '0-128'],
    ['10.0.0.0/x', '10.0.0.0/x', 'prefix length'],
    ['127.0.0.1,,10.0.0.1', '', 'empty entry'],
    ['yes', 'yes', 'not an IP address'],
  ])('rejects %j naming the bad entry', (value, entry, reason) => {
    let caught: unknown;
    try {
      parseAllowPrivateTargets(value);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidAddressPolicyError);
    const error = caught as InvalidAddressPolicyError;
    expect(error.code).toBe('invalid_address_policy');
    expect(error.entry).toBe(entry);
    expect(error.message).toContain(`"${entry}"`);
    expect(error.message).toContain(reason);
    expect(error.message).toContain('PLATFORM_ALLOW_PRIVATE_TARGETS');
  });
});

describe('validateWebhookUrl', () => {
  const blocked = parseAllowPrivateTargets(undefined);
  const loopbackOnly = parseAllowPrivateTargets('127.0.0.0/8');

  it('accepts https URLs to names and public IPs', () => {
    const check = validateWebhookUrl('https://hooks.example.com/in?x=1', blocked);
    expect(check.ok && check.url.href).toBe('https://hooks.example.com/in?x=1');
    expect(validateWebhookUrl('https://93.184.216.34/in', blocked).ok).toBe(true);
  });

  it.each([
    ['not a url', 'not a valid absolute URL'],
    ['/relative', 'not a valid absolute URL'],
    ['http://hooks.example.com/in', 'must use https:'],
    ['ftp://hooks.example.com/in', 'must use https:, not ftp:'],
    ['https://user:pw@hooks.example.com/in', 'must not contain credentials'],
    ['https://127.0.0.1/in', '127.0.0.1 (loopback)'],
    ['https://0x7f.1/in', '127.0.0.1 (loopback)'],
    ['https://[::ffff:127.0.0.1]/in', 'loopback'],
    ['https://[fd00::1]/in', 'unique-local'],
    ['https://169.254.169.254/latest', 'link-local'],
    ['https://localhost:8443/in', 'localhost (loopback)'],
    ['https://api.localhost/in', 'loopback'],
    ['https://localhost./in', 'localhost (loopback)'],
    ['https://LOCALHOST../in', 'localhost (loopback)'],
    ['https://Api.LocalHost./in', 'loopback'],
    ['https://127.0.0.1./in', '127.0.0.1 (loopback)'],
    ['https://2130706433/in', '127.0.0.1 (loopback)'],
    ['https://0177.0.0.1/in', '127.0.0.1 (loopback)'],
    ['https://metadata.google.internal./computeMetadata', 'metadata.google.internal, a name only a local'],
    ['https://printer.LOCAL/in', 'printer.local, a name only a local network'],
  ])('refuses %s when private targets are blocked', (url, message) => {
    const check = validateWebhookUrl(url, blocked);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.message).toContain(message);
  });

  it('normalises host names (brackets, case, trailing dots) before checking them', () => {
    expect(normalizeHostname('LOCALHOST.')).toBe('localhost');
    expect(normalizeHostname('VM..')).toBe('vm');
    expect(normalizeHostname('[::1]')).toBe('::1');
    expect(normalizeHostname('Hooks.Example.com.')).toBe('hooks.example.com');
    expect(validateWebhookUrl('https://Hooks.Example.COM./in', blocked).ok).toBe(true);
  });

  it('leaves one-label names, and local names when some private targets are allowed, to the connection-time check', () => {
    expect(validateWebhookUrl('https://VM./in', blocked).ok).toBe(true);
    expect(validateWebhookUrl('http://vm.internal./in', loopbackOnly).ok).toBe(true);
  });

  it('allows http: and allow-listed private IPs when the operator allows private targets', () => {
    expect(validateWebhookUrl('http://127.0.0.1:3000/in', loopbackOnly).ok).toBe(true);
    expect(validateWebhookUrl('http://hooks.example.com/in', loopbackOnly).ok).toBe(true);
    const outside = validateWebhookUrl('http://10.0.0.1/in', loopbackOnly);
    expect(!outside.ok && outside.message).toContain('not in the allow-list');
    expect(validateWebhookUrl('http://localhost:3000/in', parseAllowPrivateTargets('1')).ok).toBe(true);
  });
});
