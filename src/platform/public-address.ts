/**
 * Which addresses the server may connect to on a caller's behalf (a product image fetched from a URL, a webhook
 * delivery): public unicast ones only. Not loopback, private, link-local, unique-local, CGNAT, multicast,
 * documentation or other reserved ranges, and no IPv6 form that carries an IPv4 address a router or the host
 * may unwrap (IPv4-mapped `::ffff:0:0/96`, 6to4 `2002::/16`, Teredo `2001::/32`, NAT64 `64:ff9b::/96`): an
 * IPv4-mapped address is judged as the IPv4 address it maps, and IPv6 must be global unicast (2000::/3).
 *
 * The check runs on the address a connection is actually made to (`publicOnlyLookup`), so a name that resolves
 * to 127.0.0.1, now or after a later DNS change, is refused too.
 */
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Whether an IP address is a public one; anything that is not an IP address is not. */
export function isPublicAddress(address: string): boolean {
  if (!net.isIP(address) || !ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    else if (!v6.match(GLOBAL_UNICAST_V6)) return false;
  }
  return ip.range() === 'unicast';
}

/** Whether a URL's host is refused before any lookup: a literal address that is not public, or a localhost name. */
export function isRefusedHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) return !isPublicAddress(host);
  return /^localhost$|\.localhost$/i.test(host);
}

/**
 * A `lookup` for http.request that hands the socket public addresses only: a name with any address that is not
 * public fails with `refused(hostname)`.
 */
export function publicOnlyLookup(refused: (hostname: string) => Error): net.LookupFunction {
  return ((
    hostname: string,
    options: dns.LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
  ) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      if (!list.length || list.some((a) => !isPublicAddress(a.address))) return callback(refused(hostname), '', 0);
      if (options.all) return callback(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  }) as net.LookupFunction;
}
