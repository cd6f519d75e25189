/**
 * XML-RPC at /api/xmlrpc/: the untyped interface's `login`, `call`, `multiCall`, `endSession`, `resources`,
 * `globalFaults`, `resourceFaults` and `startSession`, plus the `system.multicall` and `system.listMethods` an
 * XML-RPC library offers, over the shared handler. Values are decoded from the XML-RPC types (a bare `<value>`
 * is a string, `<nil/>` is null) and encoded as Magento's server did: numbers it read as strings, flags as
 * `<boolean>`, null as `<nil/>`. Every answer is HTTP 200; a failure is a `<fault>` with the legacy code.
 */
import type { Ctx } from '../../platform/context.js';
import { isRecord, parseBoolean, type SoapValue } from './encoding.js';
import { SoapFault } from './faults.js';
import { callList, INTERFACE_METHODS, invoke } from './handler.js';
import { esc, parseXml, type XmlElement } from './xml.js';

/** Faults of the protocol itself, with the codes XML-RPC servers give them. */
const PROTOCOL = {
  parse: [630, 'Unable to parse request'],
  noMethod: [620, 'Method "%s" does not exist'],
  params: [623, 'Calling parameters do not match signature'],
} as const;

class RpcFault extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const MAX_DEPTH = 32;

const elements = (el: XmlElement) => el.children;

/** The value of a `<value>` element. */
function decode(value: XmlElement, depth = 0): SoapValue {
  if (depth > MAX_DEPTH) throw new RpcFault(...PROTOCOL.parse);
  const [typed] = elements(value);
  if (!typed) return value.text;
  const text = typed.text;
  switch (typed.local) {
    case 'string':
      return text;
    case 'int':
    case 'i4':
    case 'i8': {
      if (!/^\s*[+-]?\d+\s*$/.test(text)) throw new RpcFault(...PROTOCOL.params);
      return Number(text);
    }
    case 'double': {
      const n = Number(text.trim());
      if (!text.trim() || !Number.isFinite(n)) throw new RpcFault(...PROTOCOL.params);
      return n;
    }
    case 'boolean':
      try {
        return parseBoolean(text);
      } catch {
        throw new RpcFault(...PROTOCOL.params);
      }
    case 'nil':
      return null;
    case 'dateTime.iso8601':
      return text.trim();
    case 'base64':
      return Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'array': {
      const data = elements(typed).find((c) => c.local === 'data');
      return (data ? elements(data) : []).filter((c) => c.local === 'value').map((v) => decode(v, depth + 1));
    }
    case 'struct': {
      const out = new Map<string, SoapValue>();
      for (const m of elements(typed)) {
        if (m.local !== 'member') continue;
        const name = elements(m).find((c) => c.local === 'name');
        const v = elements(m).find((c) => c.local === 'value');
        if (!name || !v) throw new RpcFault(...PROTOCOL.parse);
        out.set(name.text, decode(v, depth + 1));
      }
      return out;
    }
    default:
      throw new RpcFault(...PROTOCOL.parse);
  }
}

function encode(v: SoapValue): string {
  if (v === null) return '<value><nil/></value>';
  if (typeof v === 'boolean') return `<value><boolean>${v ? 1 : 0}</boolean></value>`;
  if (typeof v === 'number') return Number.isInteger(v) ? `<value><int>${v}</int></value>` : `<value><double>${v}</double></value>`;
  if (typeof v === 'string') return `<value><string>${esc(v)}</string></value>`;
  if (Array.isArray(v)) return `<value><array><data>${v.map(encode).join('')}</data></array></value>`;
  if (isRecord(v)) {
    let members = '';
    for (const [k, x] of v) members += `<member><name>${esc(k)}</name>${encode(x)}</member>`;
    return `<value><struct>${members}</struct></value>`;
  }
  return '<value><nil/></value>';
}

const response = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<methodResponse>${body}</methodResponse>\n`;

function faultBody(code: number, message: string): string {
  return `<fault>${encode(
    new Map<string, SoapValue>([
      ['faultCode', code],
      ['faultString', message],
    ]),
  )}</fault>`;
}

/** A fault of ours as XML-RPC's: the legacy code as an int; a SOAP client/server fault as the protocol's. */
function asRpcFault(err: unknown): RpcFault | undefined {
  if (err instanceof RpcFault) return err;
  if (err instanceof SoapFault) return new RpcFault(/^\d+$/.test(err.code) ? Number(err.code) : PROTOCOL.params[0], err.message);
  return undefined;
}

/** One method of the interface, its arguments decoded; `system.multicall` runs each entry through here. */
async function dispatch(ctx: Ctx, method: string, params: SoapValue[]): Promise<SoapValue> {
  if (Object.hasOwn(INTERFACE_METHODS, method)) return invoke(ctx, method, params);
  if (method === 'system.listMethods') return Object.keys(INTERFACE_METHODS);
  if (method === 'system.multicall') return systemMulticall(ctx, params[0]);
  throw new RpcFault(PROTOCOL.noMethod[0], PROTOCOL.noMethod[1].replace('%s', method));
}

/** `system.multicall([{methodName, params}, ...])`: each result wrapped in a one-item list, each failure as a fault struct. */
async function systemMulticall(ctx: Ctx, calls: SoapValue | undefined): Promise<SoapValue[]> {
  const list = callList(calls);
  const out: SoapValue[] = [];
  for (const entry of list) {
    try {
      const name = isRecord(entry) ? entry.get('methodName') : undefined;
      const params = isRecord(entry) ? entry.get('params') : undefined;
      if (typeof name !== 'string' || name === 'system.multicall') throw new RpcFault(...PROTOCOL.params);
      out.push([await dispatch(ctx, name, Array.isArray(params) ? params : [])]);
    } catch (err) {
      const f = asRpcFault(err);
      if (!f) throw err;
      out.push(
        new Map<string, SoapValue>([
          ['faultCode', f.code],
          ['faultString', f.message],
        ]),
      );
    }
  }
  return out;
}

/** The answer to one XML-RPC request body. */
export async function handleXmlRpc(ctx: Ctx, body: string): Promise<string> {
  try {
    let root: XmlElement;
    try {
      root = parseXml(body);
    } catch {
      throw new RpcFault(...PROTOCOL.parse);
    }
    const name = elements(root).find((c) => c.local === 'methodName');
    if (root.local !== 'methodCall' || !name || !name.text.trim()) throw new RpcFault(...PROTOCOL.parse);
    const paramsEl = elements(root).find((c) => c.local === 'params');
    const params = (paramsEl ? elements(paramsEl) : []).map((p) => {
      const v = elements(p).find((c) => c.local === 'value');
      if (p.local !== 'param' || !v) throw new RpcFault(...PROTOCOL.parse);
      return decode(v);
    });
    const result = await dispatch(ctx, name.text.trim(), params);
    return response(`<params><param>${encode(result)}</param></params>`);
  } catch (err) {
    const f = asRpcFault(err);
    if (!f) {
      ctx.log.error({ err }, 'XML-RPC request failed');
      return response(faultBody(1, 'Internal Error. Please see log for details.'));
    }
    return response(faultBody(f.code, f.message));
  }
}
