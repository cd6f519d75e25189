/**
 * How imported products are put together: configurable super attributes and children, grouped children,
 * related / up-sell / cross-sell links and bundle options and selections, a batch of products at a time.
 */
import {
  bundleOptions,
  bundleSelections,
  configurableAttributes,
  configurableChildren,
  groupedChildren,
  productLinks,
} from '../../modules/catalog/tables.js';
import { count, existingIds, sync } from '../context.js';
import { bool, decimal, int, text } from '../source.js';
import { attributeIdMap } from './attribute-ids.js';
import { between, ofBatch, productPart } from './product-parts.js';

// one batch at a time: a batch reads the configurable children other batches write
export const compositionImporter = productPart(
  'product composition',
  'catalog_product_link',
  async (ctx, stats, ids, [lo, hi]) => {
    // configurable: super attributes and children
    const attrIds = await attributeIdMap(ctx);
    const supers = ofBatch(
      await ctx.source.query(`SELECT * FROM catalog_product_super_attribute WHERE ${between('product_id')}`, [lo, hi]),
      'product_id',
      ids,
    );
    const superLinks = ofBatch(
      await ctx.source.query(`SELECT * FROM catalog_product_super_link WHERE ${between('parent_id')}`, [lo, hi]),
      'parent_id',
      ids,
    );
    // links: related 1, super (grouped) 3, up-sell 4, cross-sell 5, with position and qty attributes
    const types = new Map(
      (await ctx.source.query('SELECT link_type_id, code FROM catalog_product_link_type')).map((t) => [
        Number(t.link_type_id),
        String(t.code),
      ]),
    );
    const links = ofBatch(
      await ctx.source.query(`SELECT * FROM catalog_product_link WHERE ${between('product_id')}`, [lo, hi]),
      'product_id',
      ids,
    );
    const linkIds = links.map((l) => l.link_id);
    const linkAttr = async (table: string) =>
      linkIds.length && ctx.source.hasTable(table)
        ? await ctx.source.query(
            `SELECT v.link_id, a.product_link_attribute_code AS code, v.value FROM ${table} v JOIN catalog_product_link_attribute a ON a.product_link_attribute_id = v.product_link_attribute_id WHERE v.link_id IN (${linkIds.map(() => '?').join(',')})`,
            linkIds,
          )
        : [];
    const extra = new Map<number, Record<string, unknown>>();
    for (const v of [
      ...(await linkAttr('catalog_product_link_attribute_int')),
      ...(await linkAttr('catalog_product_link_attribute_decimal')),
    ]) {
      const e = extra.get(Number(v.link_id)) ?? {};
      e[String(v.code)] = v.value;
      extra.set(Number(v.link_id), e);
    }
    // bundle options and selections
    const bOptions = ofBatch(
      await ctx.source.query(`SELECT * FROM catalog_product_bundle_option WHERE ${between('parent_id')}`, [lo, hi]),
      'parent_id',
      ids,
    );
    const bTitles = bOptions.length
      ? new Map(
          (
            await ctx.source.query(
              `SELECT option_id, title FROM catalog_product_bundle_option_value WHERE store_id = 0 AND option_id IN (${bOptions.map(() => '?').join(',')})`,
              bOptions.map((o) => o.option_id),
            )
          ).map((t) => [Number(t.option_id), text(t.title)]),
        )
      : new Map();
    const bSelections = ofBatch(
      await ctx.source.query(`SELECT * FROM catalog_product_bundle_selection WHERE ${between('parent_product_id')}`, [lo, hi]),
      'parent_product_id',
      ids,
    );
    stats.found += supers.length + superLinks.length + links.length + bOptions.length + bSelections.length;
    const present = await existingIds(ctx.db, 'products', [
      ...superLinks.map((l) => Number(l.product_id)),
      ...links.map((l) => Number(l.linked_product_id)),
      ...bSelections.map((s) => Number(s.product_id)),
    ]);

    const conf = supers
      .filter((s) => attrIds.has(Number(s.attribute_id)))
      .map((s) => ({ productId: Number(s.product_id), attributeId: attrIds.get(Number(s.attribute_id))!, position: int(s.position) ?? 0 }));
    const children = [];
    for (const l of superLinks) {
      if (present.has(Number(l.product_id))) children.push({ parentId: Number(l.parent_id), childId: Number(l.product_id) });
      else ctx.report.skip(stats, l.link_id, 'configurable child not imported');
    }
    const grouped = [];
    const related = [];
    const LINK_TYPES: Record<string, string> = { relation: 'related', up_sell: 'up_sell', cross_sell: 'cross_sell' };
    for (const l of links) {
      const code = types.get(Number(l.link_type_id));
      const e = extra.get(Number(l.link_id)) ?? {};
      if (!present.has(Number(l.linked_product_id))) ctx.report.skip(stats, l.link_id, 'linked product not imported');
      else if (code === 'super')
        grouped.push({
          parentId: Number(l.product_id),
          childId: Number(l.linked_product_id),
          qty: decimal(e.qty) ?? '0',
          position: int(e.position) ?? 0,
        });
      else if (code && LINK_TYPES[code])
        related.push({
          productId: Number(l.product_id),
          type: LINK_TYPES[code],
          linkedProductId: Number(l.linked_product_id),
          position: int(e.position) ?? 0,
        });
      else ctx.report.skip(stats, l.link_id, `link type ${code ?? l.link_type_id} not supported`);
    }
    const bundle = bOptions.map((o) => ({
      id: Number(o.option_id),
      productId: Number(o.parent_id),
      title: bTitles.get(Number(o.option_id)) ?? `Option ${o.option_id}`,
      type: String(o.type ?? 'select'),
      required: bool(o.required),
      position: int(o.position) ?? 0,
    }));
    const selections = [];
    for (const s of bSelections) {
      if (!present.has(Number(s.product_id))) ctx.report.skip(stats, s.selection_id, 'bundle selection product not imported');
      else {
        selections.push({
          id: Number(s.selection_id),
          optionId: Number(s.option_id),
          productId: Number(s.product_id),
          qty: decimal(s.selection_qty) ?? '1',
          canChangeQty: bool(s.selection_can_change_qty),
          isDefault: bool(s.is_default),
          position: int(s.position) ?? 0,
          price: decimal(s.selection_price_value),
          priceType: Number(s.selection_price_type) === 1 ? 'percent' : 'fixed',
        });
      }
    }
    for (const r of [
      await sync(ctx.db, configurableAttributes, configurableAttributes.productId, ids, conf, [
        configurableAttributes.productId,
        configurableAttributes.attributeId,
      ]),
      await sync(ctx.db, configurableChildren, configurableChildren.parentId, ids, children, [
        configurableChildren.parentId,
        configurableChildren.childId,
      ]),
      await sync(ctx.db, groupedChildren, groupedChildren.parentId, ids, grouped, [groupedChildren.parentId, groupedChildren.childId]),
      await sync(ctx.db, productLinks, productLinks.productId, ids, related, [
        productLinks.productId,
        productLinks.type,
        productLinks.linkedProductId,
      ]),
      await sync(ctx.db, bundleOptions, bundleOptions.productId, ids, bundle, [bundleOptions.id]),
      await sync(
        ctx.db,
        bundleSelections,
        bundleSelections.optionId,
        bundle.map((b) => b.id),
        selections,
        [bundleSelections.id],
      ),
    ]) {
      count(stats, r);
    }
    ctx.sequences.add('product_bundle_options');
    ctx.sequences.add('product_bundle_selections');
  },
  true,
);
