/**
 * V1 (rpc/encoded): `login`, `endSession`, `call(sessionId, resourcePath, args)` and `multiCall`. Arguments are
 * dynamic (`xsd:anyType`), results are encoded from their values; numbers go out as `xsd:string` as classic
 * installations sent them, the default flags as `xsd:boolean`.
 */
import type { Ctx } from '../../platform/context.js';
import { Decoder, encodeValue, isRecord, type SoapRecord, type SoapValue } from './encoding.js';
import { clientFault, fault, serverFault, SoapFault } from './faults.js';
import { rpcParts } from './messages.js';
import { METHODS, runMethod, type LegacyAddress, type Method } from './operations.js';
import { endSession, login, MULTICALL_MAX, resume } from './sessions.js';
import type { XmlElement } from './xml.js';

const RESOURCE = 'customer_address';

/** `customer_address.<method>`; anything else is fault 3. */
function methodOf(path: SoapValue | undefined): Method {
  if (typeof path !== 'string') throw fault('pathInvalid');
  const i = path.indexOf('.');
  const resource = i < 0 ? '' : path.slice(0, i);
  const method = path.slice(i + 1);
  if (resource !== RESOURCE || !(METHODS as readonly string[]).includes(method)) throw fault('pathInvalid');
  return method as Method;
}

const PARAM_NAMES: Record<Method, string[]> = {
  list: ['customerId'],
  create: ['customerId', 'addressData'],
  info: ['addressId'],
  update: ['addressId', 'addressData'],
  delete: ['addressId'],
};

/** `args` spread over the method's parameters: a list by position, a map keyed by parameter names by name. */
function spread(method: Method, args: SoapValue | undefined): (SoapValue | undefined)[] {
  if (Array.isArray(args)) return args;
  if (isRecord(args) && PARAM_NAMES[method].some((n) => args.has(n))) return PARAM_NAMES[method].map((n) => args.get(n));
  return args === undefined ? [] : [args];
}

function v1Address(a: LegacyAddress): SoapRecord {
  return new Map(Object.entries(a).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));
}

/** A method's result as a V1 value. */
function v1Result(r: Awaited<ReturnType<typeof runMethod>>): SoapValue {
  if (r === true) return true;
  if (typeof r === 'number') return String(r);
  if (Array.isArray(r)) return r.map(v1Address);
  return v1Address(r);
}

async function call(ctx: Ctx, path: SoapValue | undefined, args: SoapValue | undefined): Promise<SoapValue> {
  const method = methodOf(path);
  return v1Result(await runMethod(ctx, method, spread(method, args)));
}

/** The calls of a multiCall: at most MULTICALL_MAX, else a client fault before any of them runs. */
function callList(calls: SoapValue | undefined): SoapValue[] {
  const list = Array.isArray(calls) ? calls : calls === undefined || calls === null ? [] : [calls];
  if (list.length > MULTICALL_MAX) throw clientFault(`A multiCall takes at most ${MULTICALL_MAX} calls; this one has ${list.length}`);
  return list;
}

/** One entry per executed call; a failed call gives a fault record instead of failing the request. */
async function multiCall(ctx: Ctx, list: SoapValue[], options: SoapValue | undefined): Promise<SoapValue[]> {
  const stopOnFault = isRecord(options) && ['1', 'true', 1, true].includes(options.get('break') as string | number | boolean);
  const out: SoapValue[] = [];
  for (const entry of list) {
    const [path, args] = Array.isArray(entry) ? entry : [entry];
    try {
      out.push(await call(ctx, path, args));
    } catch (err) {
      const f = err instanceof SoapFault && /^\d+$/.test(err.code) ? err : fault('internal');
      if (!(err instanceof SoapFault)) ctx.log.error({ err }, 'SOAP multiCall entry failed');
      out.push(
        new Map<string, SoapValue>([
          ['isFault', true],
          ['faultCode', f.code],
          ['faultMessage', f.message],
        ]),
      );
      if (stopOnFault) break;
    }
  }
  return out;
}

/** The reply body for one V1 operation element. */
export async function handleV1(ctx: Ctx, op: XmlElement, dec: Decoder): Promise<string> {
  const parts = (names: string[]) => rpcParts(op, names).map((el) => (el ? dec.value(el) : undefined));
  switch (op.local) {
    case 'login': {
      const [username, apiKey] = parts(['username', 'apiKey']);
      return `<ns1:loginResponse>${encodeValue('loginReturn', await login(ctx, username, apiKey))}</ns1:loginResponse>`;
    }
    case 'endSession': {
      const [sessionId] = parts(['sessionId']);
      return `<ns1:endSessionResponse>${encodeValue('endSessionReturn', await endSession(ctx, sessionId))}</ns1:endSessionResponse>`;
    }
    case 'call': {
      const [sessionId, path, args] = parts(['sessionId', 'resourcePath', 'args']);
      const result = await call(await resume(ctx, sessionId), path, args);
      return `<ns1:callResponse>${encodeValue('callReturn', result)}</ns1:callResponse>`;
    }
    case 'multiCall': {
      const [sessionId, calls, options] = parts(['sessionId', 'calls', 'options']);
      // the length is checked first, then the session once; every call of the list counts against the rate limit
      const list = callList(calls);
      const result = await multiCall(await resume(ctx, sessionId, list.length), list, options);
      return `<ns1:multiCallResponse>${encodeValue('multiCallReturn', result)}</ns1:multiCallResponse>`;
    }
    default:
      throw serverFault(`Procedure '${op.local}' not present`);
  }
}
