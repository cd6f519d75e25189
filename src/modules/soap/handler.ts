/**
 * The untyped interface's handler, shared by SOAP V1, XML-RPC and JSON-RPC as Magento's `Mage_Api_Model_Server_Handler`
 * is: `call(session, "resource.method", args)`, `multiCall`, `resources`, `resourceFaults` and `globalFaults`,
 * over the method table (resources.ts, the resources in resources/). Sessions (`login`, `endSession`) are in
 * sessions.ts; each wire decodes its arguments into plain values and encodes what these return.
 */
import type { Ctx } from '../../platform/context.js';
import { isRecord, type SoapValue } from './encoding.js';
import { clientFault, SoapFault } from './faults.js';
import { allowed, GLOBAL_FAULTS, resourceFault, type LegacyResource, type LegacyValue } from './resources.js';
import { LEGACY_RESOURCES } from './resources/index.js';
import { endSession, login, MULTICALL_MAX, resume, startSession } from './sessions.js';

const byName = new Map<string, LegacyResource>();
for (const r of LEGACY_RESOURCES) for (const name of [r.name, ...(r.aliases ?? [])]) byName.set(name, r);

const globalFault = (name: keyof typeof GLOBAL_FAULTS) => new SoapFault(GLOBAL_FAULTS[name][0], GLOBAL_FAULTS[name][1]);

/** The resource and method a path names (`resource.method`, the resource by its name or an alias); fault 3 otherwise. */
function resolve(path: LegacyValue | undefined) {
  if (typeof path !== 'string') throw globalFault('resource_path_invalid');
  const i = path.indexOf('.');
  const resource = i > 0 ? byName.get(path.slice(0, i)) : undefined;
  const methodName = path.slice(i + 1);
  const method = resource && Object.hasOwn(resource.methods, methodName) ? resource.methods[methodName] : undefined;
  if (!resource || !method) throw globalFault('resource_path_invalid');
  return { resource, method };
}

/** Whether a `resource.method` path names a method this server serves. */
export function serves(path: string): boolean {
  try {
    resolve(path);
    return true;
  } catch {
    return false;
  }
}

/** `args` spread over the method's parameters: a list by position, a map keyed by parameter names by name, else one argument. */
function spread(params: string[], args: LegacyValue | undefined): (LegacyValue | undefined)[] {
  if (Array.isArray(args)) return args;
  if (isRecord(args) && params.some((n) => args.has(n))) return params.map((n) => args.get(n));
  return args === undefined || args === null ? [] : [args];
}

/** One resource call: fault 3 for an unknown path, 2 when the role lacks the method's permission, 1 for a failure of ours. */
export async function call(ctx: Ctx, path: LegacyValue | undefined, args: LegacyValue | undefined): Promise<LegacyValue> {
  const { resource, method } = resolve(path);
  if (!allowed(ctx, method)) throw globalFault('access_denied');
  try {
    return await method.run(ctx, spread(method.params, args));
  } catch (err) {
    if (err instanceof SoapFault) throw err;
    ctx.log.error({ err, path }, 'legacy API call failed');
    throw resourceFault(resource, 'internal');
  }
}

/** The calls of a multiCall: at most MULTICALL_MAX, else a client fault before any of them runs. */
export function callList(calls: LegacyValue | undefined): LegacyValue[] {
  const list = Array.isArray(calls) ? calls : calls === undefined || calls === null ? [] : [calls];
  if (list.length > MULTICALL_MAX) throw clientFault(`A multiCall takes at most ${MULTICALL_MAX} calls; this one has ${list.length}`);
  return list;
}

/** One entry per executed call; a failed call gives a fault record instead of failing the request (`break` stops there). */
export async function multiCall(ctx: Ctx, list: LegacyValue[], options: LegacyValue | undefined): Promise<LegacyValue[]> {
  const stopOnFault = isRecord(options) && ['1', 'true', 1, true].includes(options.get('break') as string | number | boolean);
  const out: LegacyValue[] = [];
  for (const entry of list) {
    const [path, args] = Array.isArray(entry) ? entry : [entry];
    try {
      out.push(await call(ctx, path, args));
    } catch (err) {
      const f = err instanceof SoapFault && /^\d+$/.test(err.code) ? err : globalFault('internal');
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

/** The resources and methods the caller's role may call, with their paths and aliases. */
export function resources(ctx: Ctx): LegacyValue[] {
  const out: LegacyValue[] = [];
  for (const r of LEGACY_RESOURCES) {
    const methods = Object.entries(r.methods)
      .filter(([, m]) => allowed(ctx, m))
      .map(
        ([name, m]) =>
          new Map<string, LegacyValue>([
            ['title', m.title],
            ['description', null],
            ['path', `${r.name}.${name}`],
            ['name', name],
            ['aliases', (r.aliases ?? []).map((a) => `${a}.${name}`)],
          ]),
      );
    if (!methods.length) continue;
    out.push(
      new Map<string, LegacyValue>([
        ['title', r.title],
        ['description', null],
        ['name', r.name],
        ['aliases', r.aliases ?? []],
        ['methods', methods],
      ]),
    );
  }
  return out;
}

const faultList = (faults: Record<string, readonly [string, string]>): LegacyValue[] =>
  Object.values(faults).map(
    ([code, message]) =>
      new Map<string, LegacyValue>([
        ['code', code],
        ['message', message],
      ]),
  );

/** A resource's own faults; fault 3 for an unknown resource, 2 when the role may call none of its methods. */
export function resourceFaults(ctx: Ctx, name: LegacyValue | undefined): LegacyValue[] {
  const r = typeof name === 'string' ? byName.get(name) : undefined;
  if (!r) throw globalFault('resource_path_invalid');
  if (!Object.values(r.methods).some((m) => allowed(ctx, m))) throw globalFault('access_denied');
  return faultList(Object.keys(r.faults).length ? r.faults : GLOBAL_FAULTS);
}

export function globalFaults(): LegacyValue[] {
  return faultList(GLOBAL_FAULTS);
}

/** A result as the untyped wires send it: numbers as strings, as classic installations sent the values they read. */
export function classicValue(v: LegacyValue): LegacyValue {
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return v.map(classicValue);
  if (isRecord(v)) return new Map([...v].map(([k, x]) => [k, classicValue(x)]));
  return v;
}

/** The interface's methods with their parameter names, in Magento's handler's order (for arguments sent by name). */
export const INTERFACE_METHODS: Record<string, string[]> = {
  login: ['username', 'apiKey'],
  endSession: ['sessionId'],
  startSession: [],
  call: ['sessionId', 'apiPath', 'args'],
  multiCall: ['sessionId', 'calls', 'options'],
  resources: ['sessionId'],
  resourceFaults: ['sessionId', 'resourceName'],
  globalFaults: ['sessionId'],
};

/**
 * One method of the interface (a name of INTERFACE_METHODS) with its arguments by position, as XML-RPC and
 * JSON-RPC call it: the session resumed where the method needs one, a multiCall counted per call, results as
 * `classicValue` writes them.
 */
export async function invoke(ctx: Ctx, method: string, p: LegacyValue[]): Promise<LegacyValue> {
  switch (method) {
    case 'login':
      return login(ctx, p[0], p[1]);
    case 'endSession':
      return endSession(ctx, p[0]);
    case 'startSession':
      return startSession();
    case 'call':
      return classicValue(await call(await resume(ctx, p[0]), p[1], p[2]));
    case 'multiCall': {
      const list = callList(p[1]);
      return classicValue(await multiCall(await resume(ctx, p[0], list.length), list, p[2]));
    }
    case 'resources':
      return resources(await resume(ctx, p[0], 0));
    case 'resourceFaults':
      return resourceFaults(await resume(ctx, p[0], 0), p[1]);
    case 'globalFaults':
      return globalFaults();
    default:
      throw new Error(`not a method of the interface: ${method}`);
  }
}
