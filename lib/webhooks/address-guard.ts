import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

// docs/webhooks.md#delivery: in production a webhook may only reach a public address. The check runs on the
// address the socket is about to connect to (inside the connection's own DNS lookup, or on the
// literal IP of the URL), so a name that resolves to a public address when the URL is saved
// and to 10.0.0.1 at delivery (DNS rebinding) is refused too.

// Only global unicast passes: ipaddr.js classifies the address against IANA's special-purpose
// registries (private, loopback, link-local, CGNAT, documentation, benchmarking, multicast,
// reserved, the 6to4 relay 192.88.99.0/24; IPv6 unique-local, site-local fec0::/10, NAT64
// 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32, ORCHID, IPv4-mapped and
// -translated…), and an IPv6 address must also lie in 2000::/3, the global unicast block, which
// leaves out the IPv4-compatible ::a.b.c.d that ipaddr.js calls unicast. Tunnelling and
// translation prefixes are refused whole: the IPv4 address they carry may be a private one.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Whether `address` (an IP literal) is a global unicast address a webhook may reach. */
export function isPublicAddress(address: string): boolean {
  // net.isIP first: ipaddr.js also reads loose IPv4 forms (0x7f.1, 127.1) that no socket is given.
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

/**
 * A `lookup` for `https.request` that resolves as usual and fails the connection when any
 * address it would use is not public. `resolve` is the underlying resolver (tests stub it).
 */
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
