/**
 * The interface's own operations in the typed documents (`login`, `endSession`, `startSession`, `resources`,
 * `globalFaults`, `resourceFaults`, and in WS-I `call` and `multiCall`), with Magento's part, element and type
 * names, served by the shared handler's `invoke` (handler.ts) with their arguments in its order.
 */
import type { Part, TypedOperation } from './schema.js';

const p = (name: string, type = 'string'): Part => ({ name, type, optional: false });

/** An interface operation: the handler method it runs, and the message names Magento's documents give it. */
export interface InterfaceOperation extends TypedOperation {
  method: string;
  /** V2: the input message's name (Magento names most of them as the operation, not `<op>Request`) */
  message: string;
}

function op(name: string, method: string, params: Part[], result: Part, elements: [string, string], message = name): InterfaceOperation {
  return { name, path: '', method, params, result, request: elements[0], response: elements[1], message };
}

const APIS = 'ArrayOfApis';
const FAULTS = 'ArrayOfExistsFaltures';

/** V2, rpc/encoded: results in `<op>Return` parts. `resourceFaults` lists `resourceName` first, as Magento's document does. */
export const V2_INTERFACE = new Map<string, InterfaceOperation>(
  [
    op('login', 'login', [p('username'), p('apiKey')], p('loginReturn'), ['', '']),
    op('endSession', 'endSession', [p('sessionId')], p('endSessionReturn', 'boolean'), ['', '']),
    op('startSession', 'startSession', [], p('startSessionReturn'), ['', '']),
    op('resources', 'resources', [p('sessionId')], p('resourcesReturn', APIS), ['', ''], 'resourcesRequest'),
    op('globalFaults', 'globalFaults', [p('sessionId')], p('globalFaultsReturn', FAULTS), ['', '']),
    // a client's first argument (the session) arrives under the first part's name and is read by position
    op('resourceFaults', 'resourceFaults', [p('resourceName'), p('sessionId')], p('resourceFaultsReturn', FAULTS), ['', '']),
  ].map((o) => [o.name, o]),
);

/** WS-I, document/literal: one `…Param` element each way, the answer in `result`. */
export const WSI_INTERFACE = new Map<string, InterfaceOperation>(
  [
    op('login', 'login', [p('username'), p('apiKey')], p('result'), ['loginParam', 'loginResponseParam']),
    op('endSession', 'endSession', [p('sessionId')], p('result', 'boolean'), ['endSessionParam', 'endSessionResponseParam']),
    op('resources', 'resources', [p('sessionId')], p('result', APIS), ['resourcesRequestParam', 'resourcesResponseParam']),
    op('globalFaults', 'globalFaults', [p('sessionId')], p('result', FAULTS), ['globalFaultsParam', 'globalFaultsResponseParam']),
    op('resourceFaults', 'resourceFaults', [p('sessionId'), p('resourceName')], p('result', FAULTS), [
      'resourceFaultsParam',
      'resourceFaultsResponseParam',
    ]),
    op('call', 'call', [p('sessionId'), p('apiPath'), p('args', 'anyType')], p('result', 'anyType'), ['callParam', 'callResponseParam']),
    op('multiCall', 'multiCall', [p('sessionId'), p('calls', 'anyType'), p('options', 'anyType')], p('result', 'anyType'), [
      'multiCallParam',
      'multiCallResponseParam',
    ]),
  ].map((o) => [o.request, o]),
);
