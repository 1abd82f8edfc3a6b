import dns from 'node:dns';
import net from 'node:net';

// DECISIONS 8: in production a webhook may only reach a public address. The check runs on the
// address the socket is about to connect to (inside the connection's own DNS lookup, or on the
// literal IP of the URL), so a name that resolves to a public address when the URL is saved
// and to 10.0.0.1 at delivery (DNS rebinding) is refused too.

const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 127], // unspecified and loopback (::, ::1)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address (::ffff:10.0.0.1), if any. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match) return match[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether `address` (an IP literal) is a public unicast address a webhook may reach. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (family === 4) return !blocked.check(address, 'ipv4');
  const v4 = embeddedIpv4(address);
  if (v4) return isPublicAddress(v4);
  return !blocked.check(address, 'ipv6');
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
