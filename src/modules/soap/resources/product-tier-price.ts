/**
 * `catalog_product_attribute_tier_price` (`product_tier_price`, `product_attribute_tier_price`) of the Magento 1
 * API: a product's tier prices read and replaced as a whole over the catalog's tier price service. A tier is
 * `customer_group_id` ('all' or a group id), `website` ('all', a website id or code), `qty` and `price`, the two
 * amounts printed with the four places they are stored with. A website the product is not in is refused, as
 * Magento refuses it; so is one that does not exist (Magento would quietly make that tier one of every website).
 */
import { withTx, type Ctx } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { dec } from '../../../platform/money.js';
import { legacyDecimal, legacyInt, legacyProduct, legacyTierPrices } from '../../catalog/product-extras/legacy.js';
import { replaceTierPrices } from '../../catalog/product-extras/tier-prices-service.js';
import { lockProduct } from '../../catalog/products/subresource-shared.js';
import type { TierPriceInputT } from '../../catalog/products/subresource-schemas.js';
import { isRecord } from '../encoding.js';
import { defineResource, resourceFault, type LegacyValue } from '../resources.js';

const rec = (entries: [string, LegacyValue][]) => new Map<string, LegacyValue>(entries);
const fault = (name: string, detail?: string) => resourceFault(productTierPrice, name, detail);
const INVALID = 'Invalid Tier Prices';

async function productOf(ctx: Ctx, ref: LegacyValue | undefined, identifierType: LegacyValue | undefined) {
  const p = await legacyProduct(ctx, ref, identifierType);
  if (!p) throw fault('product_not_exists');
  return p;
}

/** A refusal of the service: 404 is the product, a 400 the data, any other refusal a failed update. */
function failed(err: unknown): never {
  if (err instanceof AppError && err.status === 404) throw fault('product_not_exists');
  if (err instanceof AppError && err.status === 400) throw fault('data_invalid', err.message);
  if (err instanceof AppError && err.status < 500) throw fault('not_updated', err.message);
  throw err;
}

/** The website a tier names: 0 for every website ('all' or none), else an existing one by id or code. */
function websiteOf(ctx: Ctx, v: LegacyValue | undefined): number {
  if (v === undefined || v === null || v === '' || v === 'all') return 0;
  const text = typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '';
  const r = ctx.app.settings;
  const found = /^\d{1,10}$/.test(text)
    ? Number(text) === 0
      ? 0
      : r.website(Number(text))?.id
    : r.allWebsites().find((w) => w.code === text)?.id;
  if (found === undefined) throw fault('data_invalid', `Invalid tier prices. Website "${text}" does not exist.`);
  return found;
}

/** Magento's tier list as the service's input; fault 101 for anything else. */
function tiersOf(ctx: Ctx, list: LegacyValue | undefined): TierPriceInputT[] {
  if (!Array.isArray(list)) throw fault('data_invalid', INVALID);
  return list.map((t) => {
    if (!isRecord(t) || t.get('qty') === undefined || t.get('qty') === null || t.get('price') === undefined || t.get('price') === null) {
      throw fault('data_invalid', INVALID);
    }
    const group = t.get('customer_group_id');
    const groupId = group === undefined || group === null || group === '' || group === 'all' ? 'all' : legacyInt(group, 0);
    if (Number.isNaN(groupId)) throw fault('data_invalid', `Invalid tier prices. Customer group "${String(group)}" does not exist.`);
    const qty = legacyDecimal(t.get('qty'));
    const price = legacyDecimal(t.get('price'));
    if (qty === null || qty === undefined) throw fault('data_invalid', 'Invalid tier prices. qty must be a number.');
    if (price === null || price === undefined) throw fault('data_invalid', 'Invalid tier prices. price must be a number.');
    return { customerGroupId: groupId as number | 'all', websiteId: websiteOf(ctx, t.get('website')), qty, price };
  });
}

export const productTierPrice = defineResource({
  name: 'catalog_product_attribute_tier_price',
  title: 'Product Tier Price API',
  aliases: ['product_attribute_tier_price', 'product_tier_price'],
  faults: {
    product_not_exists: ['100', 'Product not exists.'],
    data_invalid: ['101', 'Invalid data given. Details in error message.'],
    not_updated: ['102', 'Tier prices not updated. Details in error message.'],
  },
  methods: {
    info: {
      title: 'Retrieve product tier prices',
      permission: ['products', 'read'],
      params: ['productId', 'identifierType'],
      run: async (ctx, [productId, identifierType]) => {
        const p = await productOf(ctx, productId, identifierType);
        let rows;
        try {
          rows = await legacyTierPrices(ctx, p.id);
        } catch (err) {
          return failed(err);
        }
        return rows.map((r) =>
          rec([
            ['customer_group_id', r.customerGroupId ?? 'all'],
            ['website', r.websiteId ? (ctx.app.settings.website(r.websiteId)?.code ?? r.websiteId) : 'all'],
            ['qty', dec(r.qty).toFixed(4)],
            ['price', dec(r.price).toFixed(4)],
          ]),
        );
      },
    },
    update: {
      title: 'Update product tier prices',
      permission: ['products', 'write'],
      params: ['productId', 'tierPrices', 'identifierType'],
      run: async (ctx, [productId, tierPrices, identifierType]) => {
        const p = await productOf(ctx, productId, identifierType);
        const tiers = tiersOf(ctx, tierPrices);
        try {
          await withTx(ctx, async (tx) => {
            const row = await lockProduct(tx, p.id);
            if (tiers.some((t) => t.websiteId && !row.websiteIds.includes(t.websiteId))) {
              throw fault('data_invalid', 'Invalid tier prices. The product is not associated to the requested website.');
            }
            await replaceTierPrices(tx, p.id, tiers);
          });
        } catch (err) {
          return failed(err);
        }
        return true;
      },
    },
  },
});
