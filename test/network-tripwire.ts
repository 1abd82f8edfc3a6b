import dns from 'node:dns';
import net from 'node:net';

// Tests may only ever reach 127.0.0.0/8 and [::1]. A test of the private-address guard feeds it
// addresses such as 10.0.0.5 from a stubbed resolver; should the guard let one through, this
// tripwire (wrapped around every socket's connect and its lookup) stops the connection before
// it is made and records the violation for the test to fail on.

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

export function isLoopback(address: string): boolean {
  const family = net.isIP(address);
  return family === 4 ? LOOPBACK.check(address, 'ipv4') : family === 6 ? LOOPBACK.check(address, 'ipv6') : false;
}

export function installNetworkTripwire() {
  const violations: string[] = [];
  const original = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    // net.connect passes its normalized [options, callback] array as the one argument.
    const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
    const options = (typeof first === 'object' && first !== null ? first : {}) as net.TcpNetConnectOpts;
    const host = options.host;
    if (host && net.isIP(host) && !isLoopback(host)) {
      violations.push(host);
      throw new Error(`tripwire: connection to ${host} blocked`);
    }
    if (options.lookup) {
      const lookup = options.lookup;
      options.lookup = ((hostname: string, opts: dns.LookupOptions, callback: (...a: unknown[]) => void) =>
        lookup(hostname, opts, (error, address, family) => {
          const list = (Array.isArray(address) ? address.map((a) => a.address) : [address]) as string[];
          const bad = error ? undefined : list.find((a) => !isLoopback(a));
          if (bad) {
            violations.push(bad);
            return callback(new Error(`tripwire: connection to ${bad} blocked`));
          }
          callback(error, address, family);
        })) as typeof options.lookup;
    }
    return (original as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof original;
  return {
    violations,
    uninstall: () => {
      net.Socket.prototype.connect = original;
    },
  };
}

/** A resolver that answers from a fixed table and never asks real DNS. */
export function stubResolver(table: Record<string, string[]>): typeof dns.lookup {
  const resolve = (hostname: string, options: dns.LookupOptions, callback: (...a: unknown[]) => void) => {
    const addresses = table[hostname];
    if (!addresses) {
      const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return process.nextTick(callback, error);
    }
    const list = addresses.map((address) => ({ address, family: net.isIP(address) }));
    if (options.all) return process.nextTick(callback, null, list);
    return process.nextTick(callback, null, list[0]!.address, list[0]!.family);
  };
  return resolve as unknown as typeof dns.lookup;
}
