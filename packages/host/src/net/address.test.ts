import { describe, expect, it } from 'vitest';
import { isPrivateAddress, parseAddress, privateAddressReason } from './address.js';

const PRIVATE: Array<[string, string]> = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'link-local'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.127.255.255', 'carrier-grade NAT'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'this network'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['255.255.255.255', 'reserved'],
  ['192.0.2.10', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456::1', 'unique-local'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['fec0::1', 'site-local'],
  ['::ffff:127.0.0.1', 'loopback (IPv4 embedded in IPv6, mapped)'],
  ['::ffff:7f00:1', 'loopback (IPv4 embedded in IPv6, mapped)'],
  ['::FFFF:10.0.0.1', 'private'],
  ['::ffff:a9fe:a9fe', 'link-local'],
  ['::127.0.0.1', 'loopback (IPv4 embedded in IPv6, compatible)'],
  ['::7f00:1', 'loopback'],
  ['64:ff9b::10.0.0.1', 'nat64'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b:1::1', 'local-use NAT64'],
  ['2002:7f00:1::1', '6to4'],
  ['2002:c0a8:101::', '6to4'],
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '11.0.0.1',
  '2606:4700:4700::1111',
  '2a00:1450:4007:80e::200e',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
];

describe('isPrivateAddress', () => {
  it.each(PRIVATE)('%s is private (%s)', (ip, reasonPart) => {
    expect(isPrivateAddress(ip)).toBe(true);
    expect(privateAddressReason(ip)).toContain(reasonPart);
  });

  it.each(PUBLIC)('%s is public', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
    expect(privateAddressReason(ip)).toBeNull();
  });

  it.each(['localhost', 'example.com', '127.1', '0x7f.0.0.1', '2130706433', '010.0.0.1', '', '::g'])(
    'fails closed on the non-IP string %j',
    (value) => {
      expect(isPrivateAddress(value)).toBe(true);
      expect(privateAddressReason(value)).toBe('not an IP address');
    },
  );
});

describe('parseAddress', () => {
  it('extracts the IPv4 address embedded in IPv6 forms', () => {
    expect(parseAddress('::ffff:7f00:1')).toEqual({
      address: '::ffff:7f00:1',
      family: 'ipv6',
      embeddedIpv4: '127.0.0.1',
      embedding: 'mapped',
    });
    expect(parseAddress('64:ff9b::c0a8:101')?.embeddedIpv4).toBe('192.168.1.1');
    expect(parseAddress('2002:0a00:0001::5')?.embeddedIpv4).toBe('10.0.0.1');
    expect(parseAddress('2606:4700::1')?.embeddedIpv4).toBeUndefined();
    expect(parseAddress('fe80::1%eth0')?.address).toBe('fe80::1');
  });
});
