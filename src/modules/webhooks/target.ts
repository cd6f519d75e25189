/**
 * Where a webhook may be sent. In production a subscription's URL must be https and its host must resolve only
 * to public addresses: not loopback, private, link-local, unique-local, CGNAT, multicast or reserved ones. The
 * check runs when the URL is saved and again at every delivery, inside the connection's own DNS lookup, so the
 * address connected to is the address checked (a name that re-resolves to 127.0.0.1 later is still refused).
 */
import dns from 'node:dns';
import net from 'node:net';
import { isPublicAddress, isRefusedHost, publicOnlyLookup } from '../../platform/public-address.js';

export { isPublicAddress };

export interface TargetRules {
  /** http and non-public addresses allowed (development, tests, WEBHOOK_ALLOW_PRIVATE) */
  allowPrivate: boolean;
}

export class TargetRefused extends Error {}

/** The URL's problem under the rules (a sentence), or undefined when it may be used. */
export function urlProblem(raw: string, rules: TargetRules): string | undefined {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'url must be an absolute http or https URL';
  if (u.username || u.password) return 'url must not carry credentials';
  if (rules.allowPrivate) return undefined;
  if (u.protocol !== 'https:') return 'url must use https';
  if (isRefusedHost(u.hostname)) return 'url must not point to a loopback, private or link-local address';
  return undefined;
}

/** Resolves the URL's host now and refuses when any address is not public (the check at save time). */
export async function assertResolvesPublic(raw: string, rules: TargetRules): Promise<void> {
  if (rules.allowPrivate) return;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) return;
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    throw new TargetRefused(`url host ${host} does not resolve`);
  }
  if (!addresses.length || addresses.some((a) => !isPublicAddress(a.address))) {
    throw new TargetRefused('url must not point to a loopback, private or link-local address');
  }
}

/**
 * A `lookup` for http.request that only ever hands the socket public addresses (the delivery-time check);
 * with `allowPrivate` it is the system's own.
 */
export function guardedLookup(rules: TargetRules): net.LookupFunction | undefined {
  if (rules.allowPrivate) return undefined;
  return publicOnlyLookup((hostname) =>
    Object.assign(new TargetRefused(`${hostname} resolves to a non-public address`), { code: 'EWEBHOOKTARGET' }),
  );
}
