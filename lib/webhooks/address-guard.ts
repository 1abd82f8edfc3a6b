import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

// In production a webhook reaches only a public address, checked on the connecting socket so DNS
// rebinding is refused too (docs/webhooks.md#delivery).

// Global unicast only (ipaddr.js's IANA ranges), IPv6 also within 2000::/3.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

export function isPublicAddress(address: string): boolean {
  // net.isIP first: ipaddr.js reads loose IPv4 forms (0x7f.1) that no socket is given.
  if (net.isIP(address) === 0 || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

export class PrivateAddressError extends Error {
  readonly code = 'EPRIVATEADDRESS';
  constructor(readonly address: string) {
    super(`refused to connect to a non-public address (${address})`);
    this.name = 'PrivateAddressError';
  }
}

export type LookupFunction = typeof dns.lookup;

/** Fails the connection on any address that is not public. */
export function publicOnlyLookup(resolve: LookupFunction = dns.lookup): LookupFunction {
  const lookup = (hostname: string, options: dns.LookupOptions, callback: (...args: never[]) => void) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      const done = callback as unknown as (error: Error | null, address?: unknown, family?: number) => void;
      if (error) return done(error);
      const list = addresses as dns.LookupAddress[];
      const refused = list.find((entry) => !isPublicAddress(entry.address));
      if (refused || list.length === 0) return done(new PrivateAddressError(refused?.address ?? hostname));
      if (options.all) return done(null, list);
      return done(null, list[0]!.address, list[0]!.family);
    });
  };
  return lookup as unknown as LookupFunction;
}
