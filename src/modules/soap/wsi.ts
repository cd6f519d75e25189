/**
 * V2 in WS-I mode (document/literal): one request element per operation (`loginParam`,
 * `customerAddressListRequestParam`, ...) whose children are matched by name, and a `…ResponseParam` reply with
 * a `result` child. Lists are repeated `complexObjectArray` elements; nothing is typed with `xsi:type`.
 */
import type { Ctx } from '../../platform/context.js';
import { Decoder } from './encoding.js';
import { fault, serverFault } from './faults.js';
import { runMethod } from './operations.js';
import { endSession, login, resume } from './sessions.js';
import { itemFields, V2_OPERATIONS } from './v2.js';
import { esc, type XmlElement } from './xml.js';

/** Whether a V2 endpoint request is in WS-I style (its body element is a `…Param` element). */
export const isWsiRequest = (op: XmlElement) => op.local.endsWith('Param');

function respond(name: string, result: string): string {
  return `<ns1:${name}ResponseParam>${result}</ns1:${name}ResponseParam>`;
}

function wsiResult(r: Awaited<ReturnType<typeof runMethod>>): string {
  if (r === true) return '<result>true</result>';
  if (typeof r === 'number') return `<result>${r}</result>`;
  if (Array.isArray(r)) {
    if (!r.length) return '<result/>';
    return `<result>${r.map((a) => `<complexObjectArray>${itemFields(a, false)}</complexObjectArray>`).join('')}</result>`;
  }
  return `<result>${itemFields(r, false)}</result>`;
}

/** The reply body for one WS-I request element. */
export async function handleWsi(ctx: Ctx, op: XmlElement, dec: Decoder): Promise<string> {
  /** Required children by name, checked before anything else (fault 6). */
  const args = (names: string[]) => {
    const els = names.map((n) => op.children.find((c) => c.local === n));
    if (els.some((e) => !e)) throw fault('paramMissing');
    return els.map((e) => dec.value(e!));
  };
  if (op.local === 'loginParam') {
    const [username, apiKey] = args(['username', 'apiKey']);
    return respond('login', `<result>${esc(await login(ctx, username, apiKey))}</result>`);
  }
  if (op.local === 'endSessionParam') {
    const [sessionId] = args(['sessionId']);
    return respond('endSession', `<result>${await endSession(ctx, sessionId)}</result>`);
  }
  const m = /^(customerAddress\w+)RequestParam$/.exec(op.local);
  const name = m?.[1];
  const spec = name && Object.hasOwn(V2_OPERATIONS, name) ? V2_OPERATIONS[name] : undefined;
  if (!name || !spec) throw serverFault(`Procedure '${op.local}' not present`);
  const [sessionId, ...rest] = args(['sessionId', ...spec.params]);
  const result = await runMethod(await resume(ctx, sessionId), spec.method, rest);
  return respond(name, wsiResult(result));
}
