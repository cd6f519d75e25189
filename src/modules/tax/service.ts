/** Tax classes (the rates, rules and CRUD arrive with the tax issue). */
import { eq, inArray } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { taxClasses } from './tables.js';

export type TaxClassType = 'PRODUCT' | 'CUSTOMER';

export async function getTaxClass(ctx: Ctx, id: number) {
  const [row] = await ctx.db.select().from(taxClasses).where(eq(taxClasses.id, id));
  return row;
}

/** Names of tax classes by id, for lists that show them. */
export async function taxClassNames(ctx: Ctx, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await ctx.db.select({ id: taxClasses.id, name: taxClasses.className }).from(taxClasses).where(inArray(taxClasses.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Install data: Taxable Goods (2), Retail Customer (3), Shipping (4). */
export async function install(db: Db): Promise<void> {
  await db.insert(taxClasses).values([
    { id: 2, className: 'Taxable Goods', classType: 'PRODUCT' },
    { id: 3, className: 'Retail Customer', classType: 'CUSTOMER' },
    { id: 4, className: 'Shipping', classType: 'PRODUCT' },
  ]);
  await db.execute(sql`SELECT setval(pg_get_serial_sequence('tax_classes', 'id'), (SELECT max(id) FROM tax_classes))`);
}
