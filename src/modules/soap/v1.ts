/**
 * V1 (rpc/encoded): `login`, `endSession`, `call(sessionId, resourcePath, args)`, `multiCall`, `resources`,
 * `resourceFaults` and `globalFaults`, over the shared handler (handler.ts). Arguments are dynamic
 * (`xsd:anyType`), results are encoded from their values; numbers go out as `xsd:string` as classic
 * installations sent them, flags as `xsd:boolean`.
 */
import type { Ctx } from '../../platform/context.js';
import { Decoder, encodeValue } from './encoding.js';
import { serverFault } from './faults.js';
import { call, callList, classicValue, globalFaults, multiCall, resourceFaults, resources } from './handler.js';
import { rpcParts } from './messages.js';
import { endSession, login, resume, startSession } from './sessions.js';
import type { XmlElement } from './xml.js';

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
      return `<ns1:callResponse>${encodeValue('callReturn', classicValue(result))}</ns1:callResponse>`;
    }
    case 'multiCall': {
      const [sessionId, calls, options] = parts(['sessionId', 'calls', 'options']);
      // the length is checked first, then the session once; every call of the list counts against the rate limit
      const list = callList(calls);
      const result = await multiCall(await resume(ctx, sessionId, list.length), list, options);
      return `<ns1:multiCallResponse>${encodeValue('multiCallReturn', classicValue(result))}</ns1:multiCallResponse>`;
    }
    case 'resources': {
      const [sessionId] = parts(['sessionId']);
      const result = resources(await resume(ctx, sessionId, 0));
      return `<ns1:resourcesResponse>${encodeValue('resourcesReturn', result)}</ns1:resourcesResponse>`;
    }
    case 'resourceFaults': {
      // Magento's document lists resourceName first: a client's first argument, the session, arrives under that name
      const [sessionId, name] = parts(['resourceName', 'sessionId']);
      const result = resourceFaults(await resume(ctx, sessionId, 0), name);
      return `<ns1:resourceFaultsResponse>${encodeValue('resourceFaultsReturn', result)}</ns1:resourceFaultsResponse>`;
    }
    case 'globalFaults': {
      // answered with or without a session, as Magento does
      return `<ns1:globalFaultsResponse>${encodeValue('globalFaultsReturn', globalFaults())}</ns1:globalFaultsResponse>`;
    }
    case 'startSession':
      return `<ns1:startSessionResponse>${encodeValue('startSessionReturn', startSession())}</ns1:startSessionResponse>`;
    default:
      throw serverFault(`Procedure '${op.local}' not present`);
  }
}
