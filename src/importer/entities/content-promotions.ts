/**
 * Shopping cart price rules and their coupons (ids kept), with their websites, customer groups and usage:
 * each coupon's count, and per customer (salesrule_coupon_usage; for a rule with a single coupon also the
 * rule's per-customer count, salesrule_customer, which Magento checks against the rule's uses per customer).
 *
 * Rules apply here only through a coupon, so a rule without one is left out. Of a rule's conditions only a
 * minimum subtotal ("subtotal equals or greater than") has a place here; a rule with other conditions, item
 * conditions (actions) or store labels is imported without them and reported.
 */
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { couponUsages, coupons, salesRules } from '../../modules/coupons/tables.js';
import {
  assertImportable,
  count,
  existingIds,
  groupBy,
  imported,
  inList,
  intArray,
  recordIds,
  upsert,
  type EntityImporter,
  type ImportContext,
} from '../context.js';
import { bool, date, day, decimal, int, str, text, trimmed, type SourceRow } from '../source.js';
import { dec } from '../../platform/money.js';
import {
  checkCount,
  childrenOf,
  countOf,
  decodeConditions,
  EPOCH,
  partly,
  targetWebsites,
  whenTable,
  type RuleCondition,
} from './content-shared.js';

const ACTIONS = new Set(['by_percent', 'by_fixed', 'cart_fixed', 'buy_x_get_y']);
const NO_COUPON = 1;
const SKIPPED_USES = 'coupons: uses of skipped coupons';

/** What of a rule's conditions converts: the minimum subtotal, and whether anything else was there. */
export function convertConditions(raw: unknown): { minimumSubtotal: string | null; complete: boolean } {
  const root = decodeConditions(raw);
  if (root === null) return { minimumSubtotal: null, complete: true };
  if (root === undefined) return { minimumSubtotal: null, complete: false };
  const children = childrenOf(root);
  if (!children.length) return { minimumSubtotal: null, complete: true };
  // "if ALL of these conditions are TRUE" (or ANY, with one condition)
  const isTrue = root.value === undefined || String(root.value) === '1' || root.value === true;
  if (!isTrue || (root.aggregator !== 'all' && !(root.aggregator === 'any' && children.length === 1)))
    return { minimumSubtotal: null, complete: false };
  let minimum: string | null = null;
  let complete = true;
  for (const c of children) {
    const amount = isMinimumSubtotal(c);
    if (amount === null) complete = false;
    else if (minimum === null || dec(amount).gt(minimum)) minimum = amount;
  }
  return { minimumSubtotal: minimum, complete };
}

function isMinimumSubtotal(c: RuleCondition): string | null {
  if (c.type !== 'salesrule/rule_condition_address' || c.attribute !== 'base_subtotal' || c.operator !== '>=' || childrenOf(c).length)
    return null;
  return decimal(typeof c.value === 'number' ? String(c.value) : c.value);
}

/** Whether a rule's item conditions (its actions) hold anything. */
function hasItemConditions(raw: unknown): boolean {
  const root = decodeConditions(raw);
  if (root === null) return false;
  return root === undefined || childrenOf(root).length > 0;
}

/** The ids of a rule's link table, or of the comma list older versions keep on the rule itself. */
async function ruleLinks(
  ctx: ImportContext,
  table: string,
  column: string,
  legacy: string,
  batch: SourceRow[],
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  const ids = batch.map((r) => Number(r.rule_id));
  if (ctx.source.hasTable(table)) {
    for (const [id, list] of groupBy(
      await ctx.source.query(`SELECT rule_id, ${column} FROM ${table} WHERE rule_id IN (${inList(ids)})`, ids),
      'rule_id',
    )) {
      out.set(
        id,
        list.map((l) => Number(l[column])),
      );
    }
  } else {
    for (const r of batch) {
      const v = str(r[legacy]);
      if (v)
        out.set(
          Number(r.rule_id),
          v
            .split(',')
            .map((s) => Number(s.trim()))
            .filter((n) => Number.isInteger(n)),
        );
    }
  }
  return out;
}

export const salesRulesImporter: EntityImporter = whenTable('salesrule', {
  name: 'sales rules',
  group: 'promotions',
  count: (ctx) => countOf(ctx, 'salesrule'),
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'sales_rules', 'sales rules');
    const websites = await targetWebsites(ctx.db);
    const groups = new Set((await rows<{ id: number }>(ctx.db, sql`SELECT id FROM customer_groups`)).map((r) => Number(r.id)));
    const hasLabels = ctx.source.hasTable('salesrule_label');
    for await (const batch of ctx.source.batches({ from: 'salesrule', key: 'rule_id' })) {
      stats.found += batch.length;
      const ids = batch.map((r) => Number(r.rule_id));
      const ruleWebsites = await ruleLinks(ctx, 'salesrule_website', 'website_id', 'website_ids', batch);
      const ruleGroups = await ruleLinks(ctx, 'salesrule_customer_group', 'customer_group_id', 'customer_group_ids', batch);
      const labelled = hasLabels
        ? new Set(
            (
              await ctx.source.query(`SELECT DISTINCT rule_id FROM salesrule_label WHERE rule_id IN (${inList(ids)}) AND label <> ''`, ids)
            ).map((r) => Number(r.rule_id)),
          )
        : new Set<number>();
      const values: (typeof salesRules.$inferInsert)[] = [];
      for (const r of batch) {
        const id = Number(r.rule_id);
        const action = trimmed(r.simple_action) ?? '';
        const w = (ruleWebsites.get(id) ?? []).filter((x) => websites.has(x));
        const sourceGroups = ruleGroups.get(id) ?? [];
        const g = sourceGroups.filter((x) => groups.has(x));
        if (int(r.coupon_type) === NO_COUPON)
          ctx.report.skip(stats, id, 'applies without a coupon (rules apply only through coupons here)');
        else if (!ACTIONS.has(action)) ctx.report.skip(stats, id, `discount action ${action || '(none)'} not supported`);
        else if (!w.length) ctx.report.skip(stats, id, 'its websites were not imported');
        else if (sourceGroups.length && !g.length) ctx.report.skip(stats, id, 'its customer groups were not imported');
        else {
          const conditions = convertConditions(r.conditions_serialized);
          const left: string[] = [];
          if (!conditions.complete) left.push('its conditions (only a minimum subtotal converts)');
          if (hasItemConditions(r.actions_serialized)) left.push('its item conditions (the discount applies to every item)');
          if (labelled.has(id)) left.push('its store labels');
          if (left.length) partly(ctx, stats, id, `imported without ${left.join(', ')}`);
          const qty = decimal(r.discount_qty);
          values.push({
            id,
            name: text(r.name) ?? `Rule ${id}`,
            description: text(r.description),
            isActive: bool(r.is_active),
            fromDate: day(r.from_date),
            toDate: day(r.to_date),
            websiteIds: [...new Set(w)].sort((a, b) => a - b),
            customerGroupIds: [...new Set(g)].sort((a, b) => a - b),
            action,
            discountAmount: decimal(r.discount_amount) ?? '0',
            discountQty: qty !== null && dec(qty).gt(0) ? qty : null,
            discountStep: Math.max(0, int(r.discount_step) ?? 0),
            minimumSubtotal: conditions.minimumSubtotal,
            sortOrder: int(r.sort_order) ?? 0,
            stopRulesProcessing: bool(r.stop_rules_processing),
            simpleFreeShipping: [1, 2].includes(int(r.simple_free_shipping) ?? 0) ? int(r.simple_free_shipping)! : 0,
            applyToShipping: bool(r.apply_to_shipping),
            timesUsed: Math.max(0, int(r.times_used) ?? 0),
          });
        }
      }
      count(stats, await upsert(ctx.db, salesRules, values, [salesRules.id]));
      await recordIds(
        ctx.db,
        'sales rules',
        values.map((v) => [v.id, v.id!]),
      );
      tick(stats.found);
    }
    ctx.sequences.add('sales_rules');
  },
  verify: (ctx) => checkCount(ctx, 'sales rules', 'sales_rules', 'salesrule'),
});

export const couponsImporter: EntityImporter = whenTable('salesrule_coupon', {
  name: 'coupons',
  group: 'promotions',
  count: (ctx) => countOf(ctx, 'salesrule_coupon'),
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'coupons', 'coupons');
    for await (const batch of ctx.source.batches({ from: 'salesrule_coupon', key: 'coupon_id' })) {
      stats.found += batch.length;
      const ruleIds = [...new Set(batch.map((r) => Number(r.rule_id)))];
      const imported = await existingIds(ctx.db, 'sales_rules', ruleIds);
      const perCustomer = new Map(
        (await ctx.source.query(`SELECT rule_id, uses_per_customer FROM salesrule WHERE rule_id IN (${inList(ruleIds)})`, ruleIds)).map(
          (r) => [Number(r.rule_id), int(r.uses_per_customer)],
        ),
      );
      // a code another coupon of ours already has (codes are unique regardless of case)
      const ids = batch.map((r) => Number(r.coupon_id));
      const codes = batch.map((r) => trimmed(r.code)?.toLowerCase()).filter((c): c is string => !!c);
      const taken = new Set(
        (
          await rows<{ code: string }>(
            ctx.db,
            sql`SELECT lower(code) AS code FROM coupons
                  WHERE lower(code) IN (SELECT jsonb_array_elements_text(${JSON.stringify(codes)}::jsonb)) AND id <> ALL(${intArray(ids)}::int[])`,
          )
        ).map((r) => r.code),
      );
      const values: (typeof coupons.$inferInsert)[] = [];
      const skip = (r: SourceRow, reason: string) => {
        ctx.report.skip(stats, r.coupon_id, reason);
        ctx.memo.set(SKIPPED_USES, ((ctx.memo.get(SKIPPED_USES) as number | undefined) ?? 0) + Math.max(0, int(r.times_used) ?? 0));
      };
      for (const r of batch) {
        const id = Number(r.coupon_id);
        const code = trimmed(r.code);
        if (!imported.has(Number(r.rule_id))) skip(r, 'its rule was not imported');
        else if (!code) skip(r, 'no code');
        else if (taken.has(code.toLowerCase())) skip(r, 'same code as another coupon');
        else {
          taken.add(code.toLowerCase());
          const timesUsed = Math.max(0, int(r.times_used) ?? 0);
          let usageLimit = int(r.usage_limit) || null;
          // a code used past its limit (Magento counts after the order) stays used up, its count kept
          if (usageLimit !== null && timesUsed > usageLimit) usageLimit = timesUsed;
          values.push({
            id,
            ruleId: Number(r.rule_id),
            code,
            usageLimit,
            usagePerCustomer: int(r.usage_per_customer) || perCustomer.get(Number(r.rule_id)) || null,
            timesUsed,
            expirationDate: date(r.expiration_date),
            type: int(r.type) === 1 ? 1 : 0,
            isPrimary: bool(r.is_primary),
            createdAt: date(r.created_at) ?? EPOCH,
          });
        }
      }
      count(stats, await upsert(ctx.db, coupons, values, [coupons.id]));
      await recordIds(
        ctx.db,
        'coupons',
        values.map((v) => [v.id, v.id!]),
      );
      tick(stats.found);
    }
    ctx.sequences.add('coupons');
  },
  async verify(ctx) {
    await checkCount(ctx, 'coupons', 'coupons', 'salesrule_coupon');
    if (ctx.since) return;
    const [s] = await ctx.source.query<{ n: string | null }>('SELECT SUM(times_used) AS n FROM salesrule_coupon');
    const [t] = await rows<{ n: number }>(
      ctx.db,
      sql`SELECT COALESCE(sum(c.times_used), 0)::int AS n FROM coupons c WHERE ${imported('coupons', sql`c.id`)}`,
    );
    ctx.report.check(
      'coupon uses (source less skipped coupons)',
      Number(s?.n ?? 0) - ((ctx.memo.get(SKIPPED_USES) as number | undefined) ?? 0),
      t.n,
    );
  },
});

export const couponUsagesImporter: EntityImporter = whenTable('salesrule_coupon', {
  name: 'coupon usages',
  group: 'promotions',
  count: (ctx) => countOf(ctx, 'salesrule_coupon_usage'),
  async run(ctx, stats, tick) {
    const usages = ctx.source.hasTable('salesrule_coupon_usage');
    const ruleCustomers = ctx.source.hasTable('salesrule_customer');
    if (!usages && !ruleCustomers) return;
    for await (const batch of ctx.source.batches({ from: 'salesrule_coupon', key: 'coupon_id', columns: 'coupon_id, rule_id' })) {
      const ids = batch.map((r) => Number(r.coupon_id));
      // couponId/customerId → uses
      const found = new Map<string, number>();
      const add = (couponId: number, customerId: number, n: number) => {
        const key = `${couponId}/${customerId}`;
        found.set(key, Math.max(found.get(key) ?? 0, n));
      };
      if (usages) {
        for (const u of await ctx.source.query(
          `SELECT coupon_id, customer_id, times_used FROM salesrule_coupon_usage WHERE coupon_id IN (${inList(ids)})`,
          ids,
        )) {
          add(Number(u.coupon_id), Number(u.customer_id), Math.max(0, int(u.times_used) ?? 0));
        }
      }
      if (ruleCustomers) {
        // a rule's count per customer is its coupon's when the rule has only that one
        const ruleIds = [...new Set(batch.map((r) => Number(r.rule_id)))];
        const single = new Map<number, number>();
        const counts = await ctx.source.query(
          `SELECT rule_id, MIN(coupon_id) AS coupon_id, COUNT(*) AS n FROM salesrule_coupon WHERE rule_id IN (${inList(ruleIds)}) GROUP BY rule_id`,
          ruleIds,
        );
        for (const c of counts) if (Number(c.n) === 1) single.set(Number(c.rule_id), Number(c.coupon_id));
        const singles = [...single.keys()];
        if (singles.length) {
          for (const u of await ctx.source.query(
            `SELECT rule_id, customer_id, times_used FROM salesrule_customer WHERE rule_id IN (${inList(singles)})`,
            singles,
          )) {
            const couponId = single.get(Number(u.rule_id))!;
            if (ids.includes(couponId)) add(couponId, Number(u.customer_id), Math.max(0, int(u.times_used) ?? 0));
          }
        }
      }
      stats.found += found.size;
      const pairs = [...found].map(([k, n]) => {
        const [couponId, customerId] = k.split('/').map(Number);
        return { couponId, customerId, timesUsed: n };
      });
      const ourCoupons = await existingIds(
        ctx.db,
        'coupons',
        pairs.map((p) => p.couponId),
      );
      const ourCustomers = await existingIds(
        ctx.db,
        'customers',
        pairs.map((p) => p.customerId),
      );
      const values: (typeof couponUsages.$inferInsert)[] = [];
      for (const p of pairs) {
        const id = `${p.couponId}/${p.customerId}`;
        if (!ourCoupons.has(p.couponId)) ctx.report.skip(stats, id, 'its coupon was not imported');
        else if (!ourCustomers.has(p.customerId)) ctx.report.skip(stats, id, 'its customer was not imported');
        else values.push(p);
      }
      count(stats, await upsert(ctx.db, couponUsages, values, [couponUsages.couponId, couponUsages.customerId]));
      tick(stats.found);
    }
  },
});

export const PROMOTION_IMPORTERS: EntityImporter[] = [salesRulesImporter, couponsImporter, couponUsagesImporter];
