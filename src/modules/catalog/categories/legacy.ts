/**
 * Category reads and product assignments as the Magento 1 API needs them: the whole tree (or a subtree, or one
 * level) in one statement with each category's name and status in a store view, a category's products with
 * their type, attribute set and position, and one product's assignment set, changed or removed under the tree's
 * lock, through the service's category update, so that two clients assigning products at once lose neither.
 */
import { sql } from 'drizzle-orm';
import { withTx, type Ctx } from '../../../platform/context.js';
import { rows } from '../../../platform/db.js';
import { LOCKS } from '../../../platform/locks.js';
import { updateCategory } from './service.js';

export interface LegacyCategoryNode {
  id: number;
  parentId: number | null;
  path: string;
  name: string;
  isActive: boolean;
  position: number;
  level: number;
}

/**
 * The categories at or below `rootId` (every one when undefined), or those whose parent is `parentOf`, or those of
 * `ids`, with name and status in store view `storeId` (0: the default values); parents before children, in menu
 * order.
 */
export async function categoryNodes(
  ctx: Ctx,
  opts: { rootId?: number; parentOf?: number; ids?: number[]; storeId: number },
): Promise<LegacyCategoryNode[]> {
  const sid = String(opts.storeId);
  const where =
    opts.ids !== undefined
      ? sql`c.id = ANY(${`{${opts.ids.join(',')}}`}::int[])`
      : opts.parentOf !== undefined
        ? sql`c.parent_id = ${opts.parentOf}`
        : opts.rootId !== undefined
          ? sql`('/' || c.path || '/') LIKE ('%/' || ${opts.rootId}::int::text || '/%')`
          : sql`true`;
  return rows<LegacyCategoryNode>(
    ctx.db,
    sql`SELECT c.id, c.parent_id AS "parentId", c.path, c.position, c.level,
          COALESCE(NULLIF(c.store_values -> ${sid}::text ->> 'name', ''), c.name) AS "name",
          COALESCE((c.store_values -> ${sid}::text ->> 'isActive')::boolean, c.is_active) AS "isActive"
        FROM categories c WHERE ${where} ORDER BY c.level, c.position, c.id`,
  );
}

export interface LegacyAssignedProduct {
  productId: number;
  type: string;
  attributeSetId: number;
  sku: string;
  position: number;
}

/** The products assigned to the category itself, by position. */
export async function assignedProducts(ctx: Ctx, categoryId: number): Promise<LegacyAssignedProduct[]> {
  return rows<LegacyAssignedProduct>(
    ctx.db,
    sql`SELECT p.id AS "productId", p.type, p.attribute_set_id AS "attributeSetId", p.sku, cp.position
        FROM category_products cp JOIN products p ON p.id = cp.product_id
        WHERE cp.category_id = ${categoryId} ORDER BY cp.position, p.id`,
  );
}

/**
 * Sets (a position) or removes (null) one product's assignment to the category, the others kept: the current
 * assignments are read under the tree's lock and written back by the service's update. `mustExist`: answers false,
 * changing nothing, when the product is not assigned.
 */
export async function setCategoryProduct(
  ctx: Ctx,
  categoryId: number,
  productId: number,
  position: number | null,
  mustExist: boolean,
): Promise<boolean> {
  return withTx(ctx, async (tx) => {
    await tx.db.execute(sql`SELECT pg_advisory_xact_lock(${LOCKS.categoryTree})`);
    const current = await rows<{ productId: number; position: number }>(
      tx.db,
      sql`SELECT product_id AS "productId", position FROM category_products WHERE category_id = ${categoryId}`,
    );
    const positions = Object.fromEntries(current.map((r) => [String(r.productId), r.position]));
    if (mustExist && !(String(productId) in positions)) return false;
    if (position === null) delete positions[String(productId)];
    else positions[String(productId)] = position;
    await updateCategory(tx, categoryId, { productPositions: positions });
    return true;
  });
}
