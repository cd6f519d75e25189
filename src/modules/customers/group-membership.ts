/**
 * Which customers belong to which group: as SQL for another module's one-statement read (the catalog's tier
 * prices, a cart's pricing group), and changed in bulk (used when a customer group is deleted).
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { customerGroups, customers } from './tables.js';

/** The group of the customer `customerId` (an int expression), 0 (not logged in) for no such customer. */
export function customerGroupIdSql(customerId: SQL): SQL {
  return sql`coalesce((SELECT ${customers.groupId} FROM ${customers} WHERE ${customers.id} = ${customerId}), 0)`;
}

/**
 * What pricingGroup answers for the customer `customerId` (an int expression) when the customer exists, as a JSON
 * array [group id, the group's tax class]; null for no such customer (or null).
 */
export function customerPricingGroupSql(customerId: SQL): SQL {
  return sql`(SELECT json_build_array(${customerGroups.id}, ${customerGroups.taxClassId}) FROM ${customers}
    INNER JOIN ${customerGroups} ON ${customerGroups.id} = ${customers.groupId} WHERE ${customers.id} = ${customerId})`;
}

/** The group customerPricingGroupSql read; undefined for a customer that does not exist. */
export function pricingGroupFromJson(json: [number, number] | null): { groupId: number; taxClassId: number } | undefined {
  return json ? { groupId: json[0], taxClassId: json[1] } : undefined;
}

/** Moves the customers of one group (of one website, when given) to another group; returns how many moved. */
export async function moveCustomersToGroup(ctx: Ctx, fromGroupId: number, toGroupId: number, websiteId?: number): Promise<number> {
  const where =
    websiteId === undefined
      ? eq(customers.groupId, fromGroupId)
      : and(eq(customers.groupId, fromGroupId), eq(customers.websiteId, websiteId));
  const moved = await ctx.db.update(customers).set({ groupId: toGroupId, updatedAt: ctx.now }).where(where).returning({ id: customers.id });
  return moved.length;
}
