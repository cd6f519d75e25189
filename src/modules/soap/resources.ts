/**
 * The Magento 1 API's method table: every resource (`customer_address`, `directory_country`, ...) with its
 * methods, their ACL, their parameter names and their resource faults, declared once and served by every
 * protocol that speaks the untyped interface (SOAP V1 `call`/`multiCall`, XML-RPC, JSON-RPC) through
 * handler.ts. A method takes its arguments by position, as Magento's handler spreads them, and answers plain
 * values (numbers as numbers); each wire encodes them as Magento's did.
 */
import type { Ctx } from '../../platform/context.js';
import { hasPermission, type Operation } from '../../platform/auth/access.js';
import type { SoapValue } from './encoding.js';
import { AppError } from '../../platform/errors.js';
import { SoapFault } from './faults.js';

/** A method's value: what every protocol can carry. */
export type LegacyValue = SoapValue;

export interface LegacyMethod {
  title: string;
  /** the API role permission the method needs, on the roles' resource tree; none: any session (public data) */
  permission?: [string, Operation];
  /** the names of its arguments, in order: a V1 `args` map keyed by them is spread by name */
  params: string[];
  run(ctx: Ctx, args: (LegacyValue | undefined)[]): Promise<LegacyValue>;
}

export interface LegacyResource {
  /** the resource path's first part, e.g. `directory_country` */
  name: string;
  title: string;
  /** other names Magento answers to (`resources_alias`), e.g. `country` */
  aliases?: string[];
  /** the resource's own faults: name → [code, message]; a method throws them with `resourceFault` */
  faults: Record<string, readonly [string, string]>;
  methods: Record<string, LegacyMethod>;
}

/** Faults of the API itself (Magento's `api/faults`), answered by every resource. */
export const GLOBAL_FAULTS: Record<string, readonly [string, string]> = {
  unknown: ['0', 'Unknown Error'],
  internal: ['1', 'Internal Error. Please see log for details.'],
  access_denied: ['2', 'Access denied.'],
  resource_path_invalid: ['3', 'Invalid api path.'],
  resource_path_not_callable: ['4', 'Resource path is not callable.'],
  session_expired: ['5', 'Session expired. Try to relogin.'],
  invalid_request_param: ['6', 'Required parameter is missing, for more details see "exception.log".'],
};

/** The fault `name` of `resource` (its own, else the global one of that name), with `detail` as its message when given. */
export function resourceFault(resource: LegacyResource, name: string, detail?: string): SoapFault {
  const [code, text] = resource.faults[name] ?? GLOBAL_FAULTS[name] ?? GLOBAL_FAULTS.unknown;
  return new SoapFault(code, detail ?? text);
}

/** Whether the caller's role holds the method's permission (only API users and staff call this interface). */
export function allowed(ctx: Ctx, m: LegacyMethod): boolean {
  return ctx.actor.kind === 'admin' && (!m.permission || hasPermission(ctx.actor.permissions, m.permission[0], m.permission[1]));
}

export function defineResource(r: LegacyResource): LegacyResource {
  return r;
}

/** An id argument (a number or its digits); anything that is no positive 32-bit integer names no row. */
export function idArg(v: LegacyValue | undefined): number | undefined {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (!/^\+?\d{1,10}$/.test(s)) return undefined;
  const n = Number(s);
  return n >= 1 && n <= 2147483647 ? n : undefined;
}

/** A moment as Magento writes it: `YYYY-MM-DD HH:MM:SS`, in UTC. */
export function magentoDate(d: Date | string | null | undefined): string | null {
  if (d === null || d === undefined) return null;
  const date = d instanceof Date ? d : new Date(d);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 19).replace('T', ' ');
}

/** How a resource answers a service's refusal: which of its faults a missing, a forbidden and an invalid request is. */
export interface ServiceFaults {
  /** a 404 (and a 403, unless `forbidden` says otherwise) */
  missing: string;
  /** a 403; without it a 403 is `missing` when `hideForbidden`, else `invalid` */
  forbidden?: string;
  hideForbidden?: boolean;
  /** any other 4xx, with the service's message */
  invalid: string;
  /** errors by their reason, before the rules above: a fault name, or a name and the message to give */
  reasons?: Record<string, string | readonly [string, string]>;
}

/** A service's AppError as the resource's fault (see ServiceFaults); anything else is thrown as it is (fault 1). */
export function serviceFault(resource: LegacyResource, err: unknown, faults: ServiceFaults): never {
  if (err instanceof AppError) {
    const byReason = err.reason ? faults.reasons?.[err.reason] : undefined;
    if (byReason)
      throw typeof byReason === 'string' ? resourceFault(resource, byReason) : resourceFault(resource, byReason[0], byReason[1]);
    if (err.status === 404) throw resourceFault(resource, faults.missing);
    if (err.status === 403 && faults.forbidden) throw resourceFault(resource, faults.forbidden);
    if (err.status === 403 && faults.hideForbidden) throw resourceFault(resource, faults.missing);
    if (err.status < 500) throw resourceFault(resource, faults.invalid, err.message);
  }
  throw err;
}
