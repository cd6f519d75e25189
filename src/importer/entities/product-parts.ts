/**
 * What hangs off imported products, read a batch of products at a time: stock, category positions, tier and
 * group prices, images (files copied when a media folder is given), custom options and downloadable links.
 * Configurable, grouped and bundle composition and product links are in product-composition.ts.
 */
import { inArray, sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import {
  categoryProducts,
  customOptions,
  customOptionValues,
  downloadableLinks,
  productMedia,
  tierPrices,
} from '../../modules/catalog/tables.js';
import { stockItems } from '../../modules/inventory/tables.js';
import { count, existingIds, groupBy, imported, intArray, sync, upsert, type EntityImporter, type ImportContext } from '../context.js';
import { attributesOf, eavValues, valuesIn } from '../eav.js';
import type { EntityStats, Report } from '../report.js';
import { bool, date, decimal, int, text, trimmed, type SourceRow } from '../source.js';
import { copyMedia } from '../media.js';

/**
 * A part read per batch of imported products: `write` reads the source rows of the products between two ids and
 * writes them (replacing what an earlier run wrote for these products). Two batches are in hand at a time, one
 * reading the source while the other writes, unless the part reads back what other batches write (`oneAtATime`);
 * what a batch reports (skips, notes) is told in batch order, so the report is the same either way.
 */
export function productPart(
  name: string,
  sourceTable: string,
  write: (ctx: ImportContext, stats: EntityStats, productIds: number[], range: [number, number]) => Promise<void>,
  oneAtATime = false,
): EntityImporter {
  return {
    name,
    group: 'catalog',
    count: (ctx) => (ctx.source.hasTable(sourceTable) ? ctx.source.count(sourceTable) : Promise.resolve(0)),
    async run(ctx, stats, tick) {
      if (!ctx.source.hasTable(sourceTable)) return;
      const inFlight = new Set<Promise<unknown>>();
      let previous: Promise<() => void> | undefined;
      const all = await importedProducts(ctx);
      try {
        for (let at = 0; at < all.length; at += ctx.source.batchSize) {
          const ids = all.slice(at, at + ctx.source.batchSize);
          const told: (() => void)[] = [];
          const report = {
            skip: (...a: Parameters<Report['skip']>) => told.push(() => ctx.report.skip(...a)),
            note: (...a: Parameters<Report['note']>) => told.push(() => ctx.report.note(...a)),
          } as unknown as Report;
          const current = write({ ...ctx, report }, stats, ids, [ids[0], ids[ids.length - 1]]).then(() => () => told.forEach((t) => t()));
          inFlight.add(current);
          current.then(
            () => inFlight.delete(current),
            () => undefined,
          );
          if (previous) (await previous)();
          previous = current;
          if (oneAtATime) {
            (await current)();
            previous = undefined;
          }
          tick(stats.found);
        }
        if (previous) (await previous)();
      } finally {
        // nothing of a batch may run on after the entity ends (its transaction with it)
        await Promise.allSettled(inFlight);
      }
    },
  };
}

/**
 * The ids of the imported products, in order: what every part reads its batches by. Read once per import (the
 * parts write no products), in one statement rather than one per batch and part.
 */
async function importedProducts(ctx: ImportContext): Promise<number[]> {
  let ids = ctx.memo.get('importedProducts') as number[] | undefined;
  if (!ids) {
    ids = (
      await rows<{ id: number }>(ctx.db, sql`SELECT id FROM products WHERE ${imported('products', sql`products.id`)} ORDER BY id`)
    ).map((r) => Number(r.id));
    ctx.memo.set('importedProducts', ids);
  }
  return ids;
}

export const between = (col: string) => `${col} BETWEEN ? AND ?`;

/** Rows of products in the batch only (ranges may hold products that were skipped). */
export function ofBatch(list: SourceRow[], key: string, ids: number[]): SourceRow[] {
  const set = new Set(ids);
  return list.filter((r) => set.has(Number(r[key])));
}

export const stockImporter = productPart('stock items', 'cataloginventory_stock_item', async (ctx, stats, ids, [lo, hi]) => {
  const found = ofBatch(
    await ctx.source.query(`SELECT * FROM cataloginventory_stock_item WHERE ${between('product_id')} AND stock_id = 1`, [lo, hi]),
    'product_id',
    ids,
  );
  stats.found += found.length;
  const qty = (v: unknown) => Math.max(0, Math.min(99_999_999, Math.floor(Number(v) || 0)));
  const clampInt = (v: unknown) => Math.max(-99_999_999, Math.min(99_999_999, Math.floor(Number(v) || 0)));
  const values = found.map((s) => ({
    productId: Number(s.product_id),
    qty: qty(s.qty),
    isInStock: bool(s.is_in_stock),
    manageStock: bool(s.use_config_manage_stock) ? true : bool(s.manage_stock),
    minQty: bool(s.use_config_min_qty) ? 0 : clampInt(s.min_qty),
    minSaleQty: bool(s.use_config_min_sale_qty) ? 1 : Math.max(1, clampInt(s.min_sale_qty)),
    maxSaleQty:
      bool(s.use_config_max_sale_qty) || !Number(s.max_sale_qty) || Number(s.max_sale_qty) >= 10000
        ? null
        : Math.max(1, clampInt(s.max_sale_qty)),
    backorders: bool(s.use_config_backorders) ? 0 : Math.max(0, Math.min(2, int(s.backorders) ?? 0)),
    notifyStockQty: bool(s.use_config_notify_stock_qty) ? null : clampInt(s.notify_stock_qty),
    qtyIncrements:
      s.enable_qty_increments !== undefined &&
      bool(s.enable_qty_increments) &&
      !bool(s.use_config_qty_increments) &&
      Number(s.qty_increments) >= 1
        ? clampInt(s.qty_increments)
        : null,
    updatedAt: date(s.low_stock_date) ?? new Date(0),
  }));
  for (const v of values) if (v.minQty < 0 && v.backorders === 0) v.minQty = 0;
  count(stats, await upsert(ctx.db, stockItems, values, [stockItems.productId]));
});
// a first import loads stock without its foreign key and copies it in (rows are keyed by product, batches ascending)
stockImporter.fills = ['stock_items'];
stockImporter.verify = async (ctx) => {
  const [src] = await ctx.source.query<{ n: string | null }>(
    'SELECT SUM(LEAST(GREATEST(FLOOR(qty), 0), 99999999)) AS n FROM cataloginventory_stock_item WHERE stock_id = 1 AND product_id IN (SELECT entity_id FROM catalog_product_entity)',
  );
  const [ours] = await rows<{ n: string }>(
    ctx.db,
    sql`SELECT COALESCE(sum(qty), 0)::text AS n FROM stock_items s WHERE ${imported('products', sql`s.product_id`)}`,
  );
  ctx.report.check('stock qty (whole units)', Number(src?.n ?? 0), Number(ours.n));
};

export const categoryProductsImporter = productPart('category products', 'catalog_category_product', async (ctx, stats, ids, [lo, hi]) => {
  const found = ofBatch(
    await ctx.source.query(`SELECT * FROM catalog_category_product WHERE ${between('product_id')}`, [lo, hi]),
    'product_id',
    ids,
  );
  stats.found += found.length;
  const cats = await existingIds(
    ctx.db,
    'categories',
    found.map((f) => Number(f.category_id)),
  );
  const values = [];
  for (const f of found) {
    if (!cats.has(Number(f.category_id))) ctx.report.skip(stats, `${f.category_id}/${f.product_id}`, 'category not imported');
    else values.push({ categoryId: Number(f.category_id), productId: Number(f.product_id), position: int(f.position) ?? 0 });
  }
  count(
    stats,
    await sync(ctx.db, categoryProducts, categoryProducts.productId, ids, values, [
      categoryProducts.categoryId,
      categoryProducts.productId,
    ]),
  );
});

export const tierPricesImporter = productPart('tier prices', 'catalog_product_entity_tier_price', async (ctx, stats, ids, [lo, hi]) => {
  const tiers = ofBatch(
    await ctx.source.query(`SELECT * FROM catalog_product_entity_tier_price WHERE ${between('entity_id')}`, [lo, hi]),
    'entity_id',
    ids,
  );
  const groups = ctx.source.hasTable('catalog_product_entity_group_price')
    ? ofBatch(
        await ctx.source.query(`SELECT * FROM catalog_product_entity_group_price WHERE ${between('entity_id')}`, [lo, hi]),
        'entity_id',
        ids,
      )
    : [];
  stats.found += tiers.length + groups.length;
  // group prices are kept as tier rows of qty 1 marked as group prices; ours are numbered anew on every run
  const values = ([...tiers, ...groups.map((g) => ({ ...g, qty: '1', is_group_price: true }))] as SourceRow[]).map((t) => ({
    productId: Number(t.entity_id),
    customerGroupId: bool(t.all_groups) ? null : Number(t.customer_group_id),
    websiteId: Number(t.website_id ?? 0),
    qty: decimal(t.qty) ?? '1',
    price: decimal(t.value) ?? '0',
    isGroupPrice: t.is_group_price === true,
  }));
  // no stable id: rows are matched on all their values
  const keyOf = (t: {
    productId: number;
    customerGroupId: number | null;
    websiteId: number;
    qty: string;
    price: string;
    isGroupPrice: boolean;
  }) => JSON.stringify([t.productId, t.customerGroupId, t.websiteId, Number(t.qty), Number(t.price), t.isGroupPrice]);
  const existing = await ctx.db
    .select()
    .from(tierPrices)
    .where(sql`${tierPrices.productId} = ANY(${intArray(ids)}::int[])`);
  const have = new Map(existing.map((e) => [keyOf(e), e.id]));
  const incoming = new Set(values.map(keyOf));
  const gone = existing.filter((e) => !incoming.has(keyOf(e))).map((e) => e.id);
  if (gone.length) await ctx.db.delete(tierPrices).where(inArray(tierPrices.id, gone));
  const fresh = values.filter((v) => !have.has(keyOf(v)));
  if (fresh.length) await ctx.db.insert(tierPrices).values(fresh);
  stats.imported += fresh.length;
  stats.unchanged += values.length - fresh.length;
});

export const mediaImporter = productPart('product images', 'catalog_product_entity_media_gallery', async (ctx, stats, ids, [lo, hi]) => {
  const gallery = ofBatch(
    await ctx.source.query(`SELECT * FROM catalog_product_entity_media_gallery WHERE ${between('entity_id')}`, [lo, hi]),
    'entity_id',
    ids,
  );
  stats.found += gallery.length;
  if (!gallery.length) return;
  const valueIds = gallery.map((g) => g.value_id);
  const labels = groupBy(
    await ctx.source.query(
      `SELECT * FROM catalog_product_entity_media_gallery_value WHERE value_id IN (${valueIds.map(() => '?').join(',')})`,
      valueIds,
    ),
    'value_id',
  );
  const attrs = await attributesOf(ctx.source, 'catalog_product');
  const roles = await eavValues(ctx.source, 'catalog_product_entity', ids, attrs, ['image', 'small_image', 'thumbnail']);
  const values = gallery.map((g) => {
    const own =
      (labels.get(Number(g.value_id)) ?? []).find((l) => Number(l.store_id) === 0) ?? (labels.get(Number(g.value_id)) ?? [])[0] ?? {};
    const file = String(g.value).startsWith('/') ? String(g.value) : `/${g.value}`;
    const v = valuesIn(roles, Number(g.entity_id));
    return {
      id: Number(g.value_id),
      productId: Number(g.entity_id),
      file,
      label: text(own.label),
      position: int(own.position) ?? 0,
      disabled: bool(own.disabled),
      types: ['image', 'small_image', 'thumbnail'].filter((role) => v[role] === g.value || v[role] === file),
    };
  });
  count(stats, await sync(ctx.db, productMedia, productMedia.productId, ids, values, [productMedia.id]));
  ctx.sequences.add('product_media');
  for (const v of values) {
    const copy = await copyMedia(ctx, 'catalog/product', v.file, { replace: true });
    if (copy.ok) continue;
    if (copy.missing) ctx.report.skip(stats, v.id, 'image file not found under --media-dir (the row is imported)');
    else {
      ctx.report.skip(stats, v.id, 'image file refused, not copied (the row is imported)');
      ctx.report.note(stats, v.id, `catalog/product${v.file} not copied: ${copy.reason}`);
    }
  }
});

export const customOptionsImporter = productPart('custom options', 'catalog_product_option', async (ctx, stats, ids, [lo, hi]) => {
  const options = ofBatch(
    await ctx.source.query(`SELECT * FROM catalog_product_option WHERE ${between('product_id')}`, [lo, hi]),
    'product_id',
    ids,
  );
  stats.found += options.length;
  if (!options.length) {
    await sync(ctx.db, customOptions, customOptions.productId, ids, [], [customOptions.id]);
    return;
  }
  const oids = options.map((o) => o.option_id);
  const q = (table: string, key: string, list: unknown[]) =>
    ctx.source.hasTable(table) && list.length
      ? ctx.source.query(`SELECT * FROM ${table} WHERE store_id = 0 AND ${key} IN (${list.map(() => '?').join(',')})`, list)
      : Promise.resolve([]);
  const titles = new Map((await q('catalog_product_option_title', 'option_id', oids)).map((t) => [Number(t.option_id), text(t.title)]));
  const prices = new Map((await q('catalog_product_option_price', 'option_id', oids)).map((t) => [Number(t.option_id), t]));
  const typeValues = await ctx.source.query(
    `SELECT * FROM catalog_product_option_type_value WHERE option_id IN (${oids.map(() => '?').join(',')})`,
    oids,
  );
  const tids = typeValues.map((t) => t.option_type_id);
  const typeTitles = new Map(
    (await q('catalog_product_option_type_title', 'option_type_id', tids)).map((t) => [Number(t.option_type_id), text(t.title)]),
  );
  const typePrices = new Map(
    (await q('catalog_product_option_type_price', 'option_type_id', tids)).map((t) => [Number(t.option_type_id), t]),
  );
  const values = options.map((o) => {
    const price = prices.get(Number(o.option_id));
    return {
      id: Number(o.option_id),
      productId: Number(o.product_id),
      title: titles.get(Number(o.option_id)) ?? `Option ${o.option_id}`,
      type: String(o.type),
      required: bool(o.is_require),
      sortOrder: int(o.sort_order) ?? 0,
      price: price ? decimal(price.price) : null,
      priceType: price?.price_type === 'percent' ? 'percent' : 'fixed',
      sku: text(o.sku),
      maxCharacters: int(o.max_characters) || null,
      fileExtensions: trimmed(o.file_extension),
      imageSizeX: int(o.image_size_x) || null,
      imageSizeY: int(o.image_size_y) || null,
    };
  });
  count(stats, await sync(ctx.db, customOptions, customOptions.productId, ids, values, [customOptions.id]));
  const rowsOfValues = typeValues.map((t) => {
    const price = typePrices.get(Number(t.option_type_id));
    return {
      id: Number(t.option_type_id),
      optionId: Number(t.option_id),
      title: typeTitles.get(Number(t.option_type_id)) ?? `Value ${t.option_type_id}`,
      price: price ? (decimal(price.price) ?? '0') : '0',
      priceType: price?.price_type === 'percent' ? 'percent' : 'fixed',
      sku: text(t.sku),
      sortOrder: int(t.sort_order) ?? 0,
    };
  });
  await sync(
    ctx.db,
    customOptionValues,
    customOptionValues.optionId,
    values.map((v) => v.id),
    rowsOfValues,
    [customOptionValues.id],
  );
  ctx.sequences.add('product_custom_options');
  ctx.sequences.add('product_custom_option_values');
});

export const downloadableImporter = productPart('downloadable links', 'downloadable_link', async (ctx, stats, ids, [lo, hi]) => {
  const links = ofBatch(
    await ctx.source.query(`SELECT * FROM downloadable_link WHERE ${between('product_id')}`, [lo, hi]),
    'product_id',
    ids,
  );
  stats.found += links.length;
  if (ctx.source.hasTable('downloadable_sample')) {
    for (const s of ofBatch(
      await ctx.source.query(`SELECT sample_id, product_id FROM downloadable_sample WHERE ${between('product_id')}`, [lo, hi]),
      'product_id',
      ids,
    )) {
      ctx.report.skip(stats, `sample ${s.sample_id}`, 'product-level samples are not kept (samples belong to links here)');
    }
  }
  if (!links.length) {
    await sync(ctx.db, downloadableLinks, downloadableLinks.productId, ids, [], [downloadableLinks.id]);
    return;
  }
  const lids = links.map((l) => l.link_id);
  const titles = new Map(
    (
      await ctx.source.query(
        `SELECT link_id, title FROM downloadable_link_title WHERE store_id = 0 AND link_id IN (${lids.map(() => '?').join(',')})`,
        lids,
      )
    ).map((t) => [Number(t.link_id), text(t.title)]),
  );
  const prices = new Map(
    (
      await ctx.source.query(
        `SELECT link_id, price FROM downloadable_link_price WHERE website_id = 0 AND link_id IN (${lids.map(() => '?').join(',')})`,
        lids,
      )
    ).map((t) => [Number(t.link_id), decimal(t.price)]),
  );
  const values = links.map((l) => ({
    id: Number(l.link_id),
    productId: Number(l.product_id),
    title: titles.get(Number(l.link_id)) ?? `Link ${l.link_id}`,
    price: prices.get(Number(l.link_id)) ?? '0',
    sortOrder: int(l.sort_order) ?? 0,
    numberOfDownloads: int(l.number_of_downloads) ?? 0,
    isShareable: int(l.is_shareable) ?? 2,
    linkType: String(l.link_type ?? 'url'),
    linkUrl: trimmed(l.link_url),
    linkFile: text(l.link_file),
    sampleType: trimmed(l.sample_type),
    sampleUrl: trimmed(l.sample_url),
    sampleFile: text(l.sample_file),
  }));
  count(stats, await sync(ctx.db, downloadableLinks, downloadableLinks.productId, ids, values, [downloadableLinks.id]));
  ctx.sequences.add('product_downloadable_links');
});
