/** Reply envelopes and the rpc-style argument lookup shared by the V1 and V2 handlers. */
import { NAMES, NS } from './names.js';
import type { XmlElement } from './xml.js';

/**
 * A successful reply; rpc/encoded replies declare the encoding style. Both declare the prefixes values may use: a
 * literal reply's `xsi:nil`, and the typed values of an `anyType` result (WS-I `call` and `multiCall`).
 */
export function envelope(body: string, encoded: boolean): string {
  const prefixes = ` xmlns:ns1="${NAMES.namespace}" xmlns:xsd="${NS.xsd}" xmlns:xsi="${NS.xsi}" xmlns:ns2="${NS.apache}" xmlns:SOAP-ENC="${NS.enc}"`;
  const decl = encoded ? `${prefixes} SOAP-ENV:encodingStyle="${NS.enc}"` : prefixes;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV="${NS.env}"${decl}><SOAP-ENV:Body>${body}</SOAP-ENV:Body></SOAP-ENV:Envelope>\n`;
}

/**
 * The parts of an rpc operation element, by name; a client that names them differently (Axis `in0`, ...) is
 * matched by position, as ext/soap does.
 */
export function rpcParts(op: XmlElement, names: readonly string[]): (XmlElement | undefined)[] {
  const byName = names.map((n) => op.children.find((c) => c.local === n));
  if (byName.some(Boolean)) return byName;
  return names.map((_, i) => op.children[i]);
}
