import type dns from 'node:dns';
import { describe, expect, it } from 'vitest';
import { stubResolver } from '@/test/network-tripwire';
import { isPublicAddress, PrivateAddressError, publicOnlyLookup } from './address-guard';

// Every special range, through the guard's own lookup with a stubbed resolver: nothing here
// opens a socket or asks real DNS.

const REFUSED: [range: string, address: string][] = [
  ['this network 0.0.0.0/8', '0.1.2.3'],
  ['private 10.0.0.0/8', '10.1.1.1'],
  ['CGNAT 100.64.0.0/10', '100.64.0.1'],
  ['loopback 127.0.0.0/8', '127.0.0.1'],
  ['link-local 169.254.0.0/16 (cloud metadata)', '169.254.169.254'],
  ['private 172.16.0.0/12', '172.31.255.255'],
  ['IETF protocol assignments 192.0.0.0/24', '192.0.0.8'],
  ['documentation 192.0.2.0/24', '192.0.2.1'],
  ['6to4 relay anycast 192.88.99.0/24', '192.88.99.1'],
  ['private 192.168.0.0/16', '192.168.0.1'],
  ['benchmarking 198.18.0.0/15', '198.19.0.1'],
  ['documentation 198.51.100.0/24', '198.51.100.7'],
  ['documentation 203.0.113.0/24', '203.0.113.9'],
  ['multicast 224.0.0.0/4', '224.0.0.1'],
  ['reserved 240.0.0.0/4', '240.0.0.1'],
  ['broadcast', '255.255.255.255'],
  ['unspecified ::', '::'],
  ['loopback ::1', '::1'],
  ['IPv4-mapped ::ffff:0:0/96 (private inside)', '::ffff:10.0.0.1'],
  ['IPv4-mapped ::ffff:0:0/96 (public inside)', '::ffff:8.8.8.8'],
  ['IPv4-mapped, hex form', '::ffff:7f00:1'],
  ['IPv4-compatible ::a.b.c.d', '::127.0.0.1'],
  ['IPv4-compatible, hex form', '::7f00:1'],
  ['IPv4-compatible, public inside', '::808:808'],
  ['IPv4-translated ::ffff:0:0:0/96', '::ffff:0:8.8.8.8'],
  ['NAT64 64:ff9b::/96', '64:ff9b::a00:1'],
  ['NAT64 64:ff9b::/96, dotted', '64:ff9b::127.0.0.1'],
  ['local-use NAT64 64:ff9b:1::/48', '64:ff9b:1::1'],
  ['discard-only 100::/64', '100::1'],
  ['Teredo 2001::/32', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  ['benchmarking 2001:2::/48', '2001:2::1'],
  ['ORCHID 2001:10::/28', '2001:10::1'],
  ['ORCHIDv2 2001:20::/28', '2001:20::1'],
  ['documentation 2001:db8::/32', '2001:db8::1'],
  ['6to4 2002::/16 (private inside)', '2002:c0a8:1::1'],
  ['6to4 2002::/16 (public inside)', '2002:808:808::1'],
  ['documentation 3fff::/20', '3fff::1'],
  ['unique-local fc00::/7', 'fd12:3456::1'],
  ['site-local fec0::/10', 'fec0::1'],
  ['link-local fe80::/10', 'fe80::1'],
  ['multicast ff00::/8', 'ff02::1'],
];

const ALLOWED = ['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700::1111', '2a00:1450:4001:80b::200e'];

/** What the guard's lookup answers for a name that resolves to `addresses`. */
function lookup(addresses: string[], options: dns.LookupOptions = { all: true }): Promise<{ error: Error | null; result: unknown }> {
  const guarded = publicOnlyLookup(stubResolver({ 'hooks.example.com': addresses }));
  return new Promise((resolve) => {
    (guarded as unknown as (h: string, o: dns.LookupOptions, cb: (e: Error | null, r?: unknown) => void) => void)(
      'hooks.example.com',
      options,
      (error, result) => resolve({ error, result }),
    );
  });
}

describe('webhook address guard', () => {
  it.each(REFUSED)('refuses %s (%s)', async (_range, address) => {
    expect(isPublicAddress(address)).toBe(false);
    const { error } = await lookup([address]);
    expect(error).toBeInstanceOf(PrivateAddressError);
    expect((error as PrivateAddressError).address).toBe(address);
  });

  it.each(ALLOWED)('lets global unicast %s through', async (address) => {
    expect(isPublicAddress(address)).toBe(true);
    const { error, result } = await lookup([address]);
    expect(error).toBeNull();
    expect(result).toEqual([{ address, family: address.includes(':') ? 6 : 4 }]);
  });

  it('refuses a name when any one of its addresses is not public (rebinding across records)', async () => {
    const { error } = await lookup(['8.8.8.8', '64:ff9b::a00:1']);
    expect(error).toBeInstanceOf(PrivateAddressError);
  });

  it('answers a single address when not asked for all', async () => {
    const { error, result } = await lookup(['8.8.8.8'], {});
    expect(error).toBeNull();
    expect(result).toBe('8.8.8.8');
  });

  it('refuses what is not an IP literal, loose IPv4 forms included', () => {
    for (const address of ['not-an-ip', '127.1', '0x7f.0.0.1', '', '8.8.8.8.8']) expect(isPublicAddress(address)).toBe(false);
  });
});
