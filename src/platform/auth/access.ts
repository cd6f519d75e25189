/**
 * Access levels, declared on every REST route and GraphQL field, and the one function that enforces them.
 * Ownership (a customer's own cart, order, address) is checked by the service, not here.
 */
import { AppError } from '../errors.js';
import type { Actor } from '../context.js';

export type Operation = 'read' | 'write' | 'create' | 'delete';

export type Access =
  | { level: 'public' }
  /** any valid token (refresh, logout) */
  | { level: 'authenticated' }
  /** a customer identity; admin and API tokens get 403 */
  | { level: 'customer' }
  /** an admin/API principal holding the permission */
  | { level: 'admin'; resource: string; op: Operation }
  /** a customer (ownership checked by the service) or an admin/API principal holding the permission */
  | { level: 'customerOrAdmin'; resource: string; op: Operation }
  /** public at the door; the service checks the X-Order-Token header */
  | { level: 'orderToken' };

export const access = {
  public: { level: 'public' } as Access,
  authenticated: { level: 'authenticated' } as Access,
  customer: { level: 'customer' } as Access,
  orderToken: { level: 'orderToken' } as Access,
  admin: (resource: string, op: Operation): Access => ({ level: 'admin', resource, op }),
  customerOrAdmin: (resource: string, op: Operation): Access => ({ level: 'customerOrAdmin', resource, op }),
};

/** Every permission resource an API role can name. */
export const RESOURCES = [
  'products',
  'categories',
  'product-attributes',
  'attribute-sets',
  'carts',
  'orders',
  'invoices',
  'shipments',
  'credit-memos',
  'inventory',
  'coupons',
  'giftcards',
  'customers',
  'addresses',
  'customer-groups',
  'reviews',
  'tags',
  'wishlists',
  'newsletter',
  'cms-pages',
  'cms-blocks',
  'blog-posts',
  'blog-categories',
  'media',
  'tax-classes',
  'tax-rates',
  'tax-rules',
  'revocation-requests',
  'stores',
  'webhooks',
  'admin-users',
  'admin-roles',
  'configuration',
  'reports',
  'activity-log',
] as const;

export const OPERATIONS: Operation[] = ['read', 'write', 'create', 'delete'];

/** A permission string is `all`, `<resource>/all` or `<resource>/<operation>`. */
export function isValidPermission(p: string): boolean {
  if (p === 'all') return true;
  const [res, op, extra] = p.split('/');
  return extra === undefined && (RESOURCES as readonly string[]).includes(res) && (op === 'all' || (OPERATIONS as string[]).includes(op));
}

/** `write` covers create and update; `delete` is only granted by itself (or `all`). */
export function hasPermission(permissions: readonly string[], resource: string, op: Operation): boolean {
  for (const p of permissions) {
    if (p === 'all' || p === `${resource}/all` || p === `${resource}/${op}`) return true;
    if (op === 'create' && p === `${resource}/write`) return true;
  }
  return false;
}

export const unauthenticated = () =>
  new AppError('unauthorized', 'Authentication required', { reason: 'UNAUTHENTICATED', headers: { 'www-authenticate': 'Bearer' } });

/** Throws 401 when credentials are missing and 403 when they are not enough. */
export function authorize(actor: Actor, rule: Access): void {
  switch (rule.level) {
    case 'public':
    case 'orderToken':
      return;
    case 'authenticated':
      if (actor.kind === 'anonymous') throw unauthenticated();
      return;
    case 'customer':
      if (actor.kind === 'anonymous') throw unauthenticated();
      if (actor.kind !== 'customer') {
        throw new AppError('forbidden', 'Customer identity required', { reason: 'CUSTOMER_IDENTITY_REQUIRED' });
      }
      return;
    case 'admin':
    case 'customerOrAdmin':
      if (actor.kind === 'anonymous') throw unauthenticated();
      if (actor.kind === 'customer') {
        if (rule.level === 'customerOrAdmin') return;
        throw new AppError('forbidden', 'Access denied', { reason: 'ADMIN_REQUIRED' });
      }
      if (!hasPermission(actor.permissions, rule.resource, rule.op)) {
        throw new AppError('forbidden', `Access denied: requires ${rule.resource}/${rule.op}`, {
          reason: 'PERMISSION_DENIED',
        });
      }
      return;
  }
}
