/**
 * JSON-RPC at /api/jsonrpc/, as Magento's JSON-RPC server answers it: the untyped interface's methods (`login`,
 * `call`, `multiCall`, `endSession`, `resources`, `resourceFaults`, `globalFaults`, `startSession`) with their
 * arguments by position or by name, and any other method taken as a resource path, `{"method":
 * "catalog_product.info", "params": [session, ...args]}` being `call(session, "catalog_product.info", args)`.
 * An answer carries `result` or `error` (`{code, message}`, the legacy fault code) with the request's `id`, and
 * `"jsonrpc": "2.0"` when the request said so; a 2.0 notification (no `id`) is answered with an empty body.
 */
import type { Ctx } from '../../platform/context.js';
import { isRecord, type SoapValue } from './encoding.js';
import { SoapFault } from './faults.js';
import { call, classicValue, INTERFACE_METHODS, invoke } from './handler.js';
import { resume } from './sessions.js';

type Json = null | string | number | boolean | Json[] | { [k: string]: Json };

const ERR = {
  parse: [-32700, 'Parse error'],
  request: [-32600, 'Invalid Request'],
  params: [-32602, 'Invalid params'],
} as const;

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const MAX_DEPTH = 32;

/** JSON in as the handler's values: objects as maps (so `__proto__` is plain data), too deep a nesting refused. */
function toValue(j: unknown, depth = 0): SoapValue {
  if (depth > MAX_DEPTH) throw new RpcError(...ERR.params);
  if (j === null || typeof j === 'string' || typeof j === 'number' || typeof j === 'boolean') return j;
  if (Array.isArray(j)) return j.map((x) => toValue(x, depth + 1));
  return new Map(Object.entries(j as Record<string, unknown>).map(([k, v]) => [k, toValue(v, depth + 1)]));
}

function toJson(v: SoapValue): Json {
  if (Array.isArray(v)) return v.map(toJson);
  if (isRecord(v)) {
    const o: { [k: string]: Json } = {};
    for (const [k, x] of v) Object.defineProperty(o, k, { value: toJson(x), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return v;
}

async function dispatch(ctx: Ctx, method: string, p: SoapValue[]): Promise<SoapValue> {
  if (Object.hasOwn(INTERFACE_METHODS, method)) return invoke(ctx, method, p);
  // a resource path as the method: call(session, path, the other arguments)
  return classicValue(await call(await resume(ctx, p[0]), method, p.slice(1)));
}

function paramsOf(method: string, raw: unknown): SoapValue[] {
  if (raw === undefined || raw === null) return [];
  if (Array.isArray(raw)) return raw.map((x) => toValue(x));
  if (typeof raw !== 'object') throw new RpcError(...ERR.params);
  const named = toValue(raw) as Map<string, SoapValue>;
  const names = Object.hasOwn(INTERFACE_METHODS, method) ? INTERFACE_METHODS[method] : undefined;
  if (!names) return [...named.values()];
  return names.map((n) => named.get(n) ?? null);
}

/** The answer to one JSON-RPC request body; undefined for a notification. */
export async function handleJsonRpc(ctx: Ctx, body: string): Promise<string | undefined> {
  let id: Json = null;
  let v2 = false;
  let notification = false;
  let out: { result: Json } | { error: { code: number; message: string } };
  try {
    let req: unknown;
    try {
      req = JSON.parse(body);
    } catch {
      throw new RpcError(...ERR.parse);
    }
    if (!req || typeof req !== 'object' || Array.isArray(req)) throw new RpcError(...ERR.request);
    const r = req as Record<string, unknown>;
    v2 = r.jsonrpc === '2.0';
    if (['string', 'number'].includes(typeof r.id) || r.id === null) id = r.id as Json;
    notification = v2 && !('id' in r);
    if (typeof r.method !== 'string' || !r.method) throw new RpcError(...ERR.request);
    out = { result: toJson(await dispatch(ctx, r.method, paramsOf(r.method, r.params))) };
  } catch (err) {
    if (err instanceof RpcError) out = { error: { code: err.code, message: err.message } };
    else if (err instanceof SoapFault)
      out = { error: { code: /^\d+$/.test(err.code) ? Number(err.code) : ERR.params[0], message: err.message } };
    else {
      ctx.log.error({ err }, 'JSON-RPC request failed');
      out = { error: { code: 1, message: 'Internal Error. Please see log for details.' } };
    }
  }
  if (notification) return undefined;
  return JSON.stringify({ ...out, id, ...(v2 ? { jsonrpc: '2.0' } : {}) });
}
