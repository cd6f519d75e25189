/**
 * SOAP V2 (rpc/encoded) and its WS-I form (document/literal), typed by the WSDL: every operation of the typed
 * tables (typed/) whose method the method table serves, and the interface's own operations. Arguments are read as
 * their declared types into the plain values of the untyped interface and run through the same handler
 * (handler.ts), so V2 `salesOrderList` and V1 `sales_order.list` are one method; results are written as the
 * declared types.
 */
import type { Ctx } from '../../platform/context.js';
import type { Decoder, SoapValue } from './encoding.js';
import { fault, serverFault } from './faults.js';
import { call, invoke, serves } from './handler.js';
import { rpcParts } from './messages.js';
import { resume } from './sessions.js';
import { TypedDecoder, TypedEncoder } from './typed/codec.js';
import { V2_INTERFACE, WSI_INTERFACE, type InterfaceOperation } from './typed/interface.js';
import { V2_OPS, V2_TYPES, WSI_BY_REQUEST, WSI_TYPES, type TypedOperation } from './typed/schema.js';
import type { XmlElement } from './xml.js';

const SESSION = { name: 'sessionId', type: 'string', optional: false };
const v2Encoder = new TypedEncoder(V2_TYPES, 'encoded');
const wsiEncoder = new TypedEncoder(WSI_TYPES, 'literal');

const servedOp = (op: TypedOperation | undefined) => (op && serves(op.path) ? op : undefined);

/** Runs an operation with its parts' values in order (the session first for a resource's). */
async function run(ctx: Ctx, op: TypedOperation | InterfaceOperation, values: (SoapValue | undefined)[]): Promise<SoapValue> {
  if ('method' in op)
    return invoke(
      ctx,
      op.method,
      values.map((v) => v ?? null),
    );
  const [sessionId, ...args] = values;
  return call(
    await resume(ctx, sessionId),
    op.path,
    args.map((v) => v ?? null),
  );
}

/** The reply body for one V2 operation element. */
export async function handleV2(ctx: Ctx, el: XmlElement, dec: Decoder): Promise<string> {
  const iface = V2_INTERFACE.get(el.local);
  const op = iface ?? servedOp(V2_OPS.get(el.local));
  if (!op) throw serverFault(`Procedure '${el.local}' not present`);
  const parts = iface ? op.params : [SESSION, ...op.params];
  const typed = new TypedDecoder(dec, V2_TYPES);
  const values = rpcParts(
    el,
    parts.map((p) => p.name),
  ).map((x, i) => (x ? typed.value(x, parts[i].type) : undefined));
  const result = await run(ctx, op, values);
  return `<ns1:${op.name}Response>${v2Encoder.element(op.result.name, result, op.result.type)}</ns1:${op.name}Response>`;
}

/** Whether a V2 endpoint request is in WS-I style (its body element is a `…Param` element). */
export const isWsiRequest = (el: XmlElement) => el.local.endsWith('Param');

/** The reply body for one WS-I request element; a required child missing is fault 6 before anything runs. */
export async function handleWsi(ctx: Ctx, el: XmlElement, dec: Decoder): Promise<string> {
  const iface = WSI_INTERFACE.get(el.local);
  const op = iface ?? servedOp(WSI_BY_REQUEST.get(el.local));
  if (!op) throw serverFault(`Procedure '${el.local}' not present`);
  const parts = iface ? op.params : [SESSION, ...op.params];
  const typed = new TypedDecoder(dec, WSI_TYPES);
  const values = parts.map((p) => {
    const x = el.children.find((c) => c.local === p.name);
    if (!x && !p.optional) throw fault('paramMissing');
    return x ? typed.value(x, p.type) : undefined;
  });
  const result = await run(ctx, op, values);
  return `<ns1:${op.response}>${wsiEncoder.element('result', result, op.result.type)}</ns1:${op.response}>`;
}
