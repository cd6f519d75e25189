/**
 * Configurable products: their super attributes (global select attributes that may be configurable) and their
 * children (simple or virtual products). Children are told apart by the super attributes: while there are any,
 * every child carries a value of each of them and no two children share the same combination of values. As in
 * Maho, children may be linked before the super attributes are set; such a product offers no choice and cannot
 * be bought (see `sellable` in ../sale.ts) until they are, and setting them checks every linked child. Super
 * attributes make the product `hasRequiredOptions`. Storefront callers see only the children they could buy.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { withTx, type Ctx } from '../../../platform/context.js';
import { badRequest, conflict, notFound } from '../../../platform/errors.js';
import { refreshPriceRanges } from '../products/price.js';
import { touchProduct } from '../products/touch.js';
import {
  CHILD_TYPES,
  assertNoDuplicates,
  invalidField,
  isCatalogReader,
  lockProduct,
  productRefs,
  requireReadableProduct,
  requireRefs,
  sellableHere,
  syncHasRequiredOptions,
} from '../products/subresource-shared.js';
import type { ConfigurableChildBodyT, ConfigurableDto, ConfigurableUpdateT } from '../products/subresource-schemas.js';
import { attributeOptions, configurableAttributes, configurableChildren, productAttributes, products } from '../tables.js';

const CONFIGURABLE: ['configurable'] = ['configurable'];

interface SuperAttribute {
  id: number;
  code: string;
}

async function superAttributesOf(ctx: Ctx, productId: number): Promise<SuperAttribute[]> {
  return ctx.db
    .select({ id: productAttributes.id, code: productAttributes.code })
    .from(configurableAttributes)
    .innerJoin(productAttributes, eq(productAttributes.id, configurableAttributes.attributeId))
    .where(eq(configurableAttributes.productId, productId))
    .orderBy(asc(configurableAttributes.position), asc(productAttributes.code));
}

async function childIdsOf(ctx: Ctx, productId: number): Promise<number[]> {
  const rows = await ctx.db
    .select({ id: configurableChildren.childId })
    .from(configurableChildren)
    .where(eq(configurableChildren.parentId, productId))
    .orderBy(asc(configurableChildren.childId));
  return rows.map((r) => r.id);
}

async function view(ctx: Ctx, productId: number): Promise<ConfigurableDto> {
  const attrs = await superAttributesOf(ctx, productId);
  let childIds = await childIdsOf(ctx, productId);
  if (!isCatalogReader(ctx)) {
    const refs = await productRefs(ctx, childIds);
    childIds = childIds.filter((id) => {
      const p = refs.get(id);
      return p !== undefined && sellableHere(ctx, p);
    });
  }
  return { id: productId, superAttributes: attrs.map((a) => a.code), childProductIds: childIds };
}

/** The configurable product's super attribute codes and child product ids (GET answers it as a one-element collection). */
export async function getConfigurable(ctx: Ctx, productId: number): Promise<ConfigurableDto> {
  await requireReadableProduct(ctx, productId, CONFIGURABLE);
  return view(ctx, productId);
}

/** Resolves codes (or ids) to attributes that may be super attributes; 400 naming the first that may not. */
async function resolveSuperAttributes(ctx: Ctx, given: readonly (string | number)[]): Promise<SuperAttribute[]> {
  const codes = given.filter((g): g is string => typeof g === 'string');
  const ids = given.filter((g): g is number => typeof g === 'number');
  const rows = [
    ...(codes.length ? await ctx.db.select().from(productAttributes).where(inArray(productAttributes.code, codes)) : []),
    ...(ids.length ? await ctx.db.select().from(productAttributes).where(inArray(productAttributes.id, ids)) : []),
  ];
  const out: SuperAttribute[] = [];
  const seen = new Set<number>();
  for (const [i, g] of given.entries()) {
    const field = `superAttributes[${i}]`;
    const a = rows.find((r) => (typeof g === 'string' ? r.code === g : r.id === g));
    if (!a) throw badRequest(`${field}: attribute ${String(g)} does not exist`, { reason: 'ATTRIBUTE_NOT_FOUND', details: { field } });
    if (a.frontendInput !== 'select' || a.scope !== 'global' || !a.isConfigurable) {
      throw badRequest(
        `${field}: attribute ${a.code} cannot be a super attribute; it must be a global select attribute that may be configurable`,
        {
          reason: 'NOT_A_SUPER_ATTRIBUTE',
          details: { field },
        },
      );
    }
    if (seen.has(a.id)) throw badRequest(`${field}: attribute ${a.code} is listed twice`, { reason: 'DUPLICATE', details: { field } });
    seen.add(a.id);
    out.push({ id: a.id, code: a.code });
  }
  return out;
}

interface ChildCheck {
  id: number;
  field: string;
}

/**
 * Checks that each child carries a valid value of every super attribute and that no two children share a
 * combination; `children` lists every child the product will have. Without super attributes there is nothing
 * to check: the children are linked as they are (see the file comment).
 */
async function assertCombinations(
  ctx: Ctx,
  productId: number,
  attrs: readonly SuperAttribute[],
  children: readonly ChildCheck[],
): Promise<void> {
  if (!children.length || !attrs.length) return;
  const rows = await ctx.db
    .select({ id: products.id, attributes: products.attributes })
    .from(products)
    .where(
      inArray(
        products.id,
        children.map((c) => c.id),
      ),
    );
  const values = new Map(rows.map((r) => [r.id, r.attributes]));
  const options = await ctx.db
    .select({ id: attributeOptions.id, attributeId: attributeOptions.attributeId })
    .from(attributeOptions)
    .where(
      inArray(
        attributeOptions.attributeId,
        attrs.map((a) => a.id),
      ),
    );
  const valid = new Set(options.map((o) => `${o.attributeId}:${o.id}`));
  const combos = new Map<string, ChildCheck>();
  for (const child of children) {
    const own = values.get(child.id) ?? {};
    const parts: string[] = [];
    for (const a of attrs) {
      const v = own[a.code];
      const optionId = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;
      if (optionId === undefined) {
        throw badRequest(`${child.field}: product ${child.id} has no value for the super attribute ${a.code}`, {
          reason: 'CHILD_MISSING_ATTRIBUTE',
          details: { field: child.field, productId: child.id, attribute: a.code },
        });
      }
      if (!valid.has(`${a.id}:${optionId}`)) {
        throw badRequest(`${child.field}: product ${child.id} has a value of ${a.code} that is not one of its options`, {
          reason: 'CHILD_INVALID_ATTRIBUTE',
          details: { field: child.field, productId: child.id, attribute: a.code },
        });
      }
      parts.push(String(optionId));
    }
    const key = parts.join('|');
    const other = combos.get(key);
    if (other) {
      throw badRequest(
        `${child.field}: products ${other.id} and ${child.id} have the same combination of ${attrs.map((a) => a.code).join(', ')}`,
        {
          reason: 'DUPLICATE_COMBINATION',
          details: { field: child.field, productIds: [other.id, child.id] },
        },
      );
    }
    combos.set(key, child);
  }
}

async function afterWrite(ctx: Ctx, productId: number): Promise<void> {
  await syncHasRequiredOptions(ctx, productId);
  await touchProduct(ctx, productId);
  await refreshPriceRanges(ctx, [productId]);
}

/** Sets the super attributes and/or the children (each key that is sent replaces that list). */
export async function setConfigurable(ctx: Ctx, productId: number, input: ConfigurableUpdateT): Promise<ConfigurableDto> {
  return withTx(ctx, async (tx) => {
    await lockProduct(tx, productId, CONFIGURABLE);
    const attrs =
      input.superAttributes === undefined
        ? await superAttributesOf(tx, productId)
        : await resolveSuperAttributes(tx, input.superAttributes);
    let children: ChildCheck[];
    if (input.childProductIds === undefined) {
      children = (await childIdsOf(tx, productId)).map((id) => ({ id, field: 'superAttributes' }));
    } else {
      const ids = input.childProductIds;
      assertNoDuplicates(ids, (i) => `childProductIds[${i}]`);
      children = ids.map((id, i) => ({ id, field: `childProductIds[${i}]` }));
      await requireRefs(tx, children, CHILD_TYPES);
    }
    await assertCombinations(tx, productId, attrs, children);
    if (input.superAttributes !== undefined) {
      await tx.db.delete(configurableAttributes).where(eq(configurableAttributes.productId, productId));
      if (attrs.length) {
        await tx.db.insert(configurableAttributes).values(attrs.map((a, position) => ({ productId, attributeId: a.id, position })));
      }
    }
    if (input.childProductIds !== undefined) {
      await tx.db.delete(configurableChildren).where(eq(configurableChildren.parentId, productId));
      if (children.length) await tx.db.insert(configurableChildren).values(children.map((c) => ({ parentId: productId, childId: c.id })));
    }
    await afterWrite(tx, productId);
    return view(tx, productId);
  });
}

/** The child id of a POST /configurable/children body: `childId`, or its aliases `childProductId`, `child_product_id`. */
function childIdOf(body: ConfigurableChildBodyT): number {
  const given = [body.childId, body.childProductId, body.child_product_id].filter((v): v is number => v !== undefined);
  if (!given.length) invalidField('childId', 'is required', 'required');
  if (given.some((v) => v !== given[0])) invalidField('childId', 'and its aliases name different products', 'const');
  return given[0];
}

/** Adds one child to a configurable product. */
export async function addConfigurableChild(ctx: Ctx, productId: number, body: ConfigurableChildBodyT): Promise<ConfigurableDto> {
  const childId = childIdOf(body);
  return withTx(ctx, async (tx) => {
    await lockProduct(tx, productId, CONFIGURABLE);
    await requireRefs(tx, [{ id: childId, field: 'childId' }], CHILD_TYPES);
    const current = await childIdsOf(tx, productId);
    if (current.includes(childId)) {
      throw conflict(`Product ${childId} is already a child of product ${productId}`, {
        reason: 'ALREADY_A_CHILD',
        details: { field: 'childId' },
      });
    }
    const attrs = await superAttributesOf(tx, productId);
    await assertCombinations(tx, productId, attrs, [...current.map((id) => ({ id, field: 'childId' })), { id: childId, field: 'childId' }]);
    await tx.db.insert(configurableChildren).values({ parentId: productId, childId });
    await afterWrite(tx, productId);
    return view(tx, productId);
  });
}

/** Removes one child from a configurable product (404 when it is not a child). */
export async function removeConfigurableChild(ctx: Ctx, productId: number, childId: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    await lockProduct(tx, productId, CONFIGURABLE);
    const gone = await tx.db
      .delete(configurableChildren)
      .where(and(eq(configurableChildren.parentId, productId), eq(configurableChildren.childId, childId)))
      .returning({ childId: configurableChildren.childId });
    if (!gone.length) throw notFound(`Product ${childId} is not a child of product ${productId}`, { reason: 'CHILD_NOT_FOUND' });
    await afterWrite(tx, productId);
  });
}
