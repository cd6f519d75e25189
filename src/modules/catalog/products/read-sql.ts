/**
 * SQL of product reads. A product is read with everything it shows in one round trip: its own columns in the
 * store view (store_values over the defaults), stock, role images and categories as columns, and every
 * detail sub-resource as a JSON-aggregated subquery (products inside it once, by id, in "children"). Column
 * names are the keys `mapper.ts` reads.
 *
 * Values come in as `ReadParams` chunks, so that the same fragments serve prepared statements (placeholders)
 * and the dynamically built listing (bound values). Each chunk carries its cast. The stock and review columns
 * are SQL the inventory and reviews modules lend (`ctx.app.catalogParts`), carried in the params too.
 */
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { CatalogParts } from '../../../platform/context.js';
import { customerGroupIdSql } from '../../customers/group-membership.js';
import {
  attributeOptions,
  bundleOptions,
  bundleSelections,
  categoryProducts,
  configurableAttributes,
  configurableChildren,
  customOptions,
  customOptionValues,
  downloadableLinks,
  groupedChildren,
  productAttributes,
  productLinks,
  productMedia,
  products,
  tierPrices,
} from '../tables.js';

export interface ReadParams {
  /** store_values key of the store view read (text; '0' reads the default values) */
  sid: SQL;
  /** the request's website (int) */
  wid: SQL;
  /** the signed-in customer's id, 0 for anybody else (int) */
  cid: SQL;
  /** true: backend reader, every product is visible (boolean) */
  backend: SQL;
  /** websites a store-restricted backend reader may see (int[] literal), null for every website */
  scope: SQL;
  /** the stock and review SQL other modules lend the read */
  parts: CatalogParts;
}

/** Other products read inside a product (variants, linked, grouped and bundle products) go by this alias. */
const child = alias(products, 'c');
type ProductTable = typeof products | typeof child;
const childFrom = sql`${products} "c"`;

/** Placeholders of a prepared statement. */
export function placeholderParams(parts: CatalogParts): ReadParams {
  return {
    sid: sql`${sql.placeholder('sid')}::text`,
    wid: sql`${sql.placeholder('wid')}::int`,
    cid: sql`${sql.placeholder('cid')}::int`,
    backend: sql`${sql.placeholder('backend')}::boolean`,
    scope: sql`${sql.placeholder('scope')}::int[]`,
    parts,
  };
}

/** Bound values, for dynamically built queries. */
export function boundParams(v: ReadValues, parts: CatalogParts): ReadParams {
  const values = readValueParams(v);
  return {
    sid: sql`${values.sid}::text`,
    wid: sql`${values.wid}::int`,
    cid: sql`${values.cid}::int`,
    backend: sql`${values.backend}::boolean`,
    scope: sql`${values.scope}::int[]`,
    parts,
  };
}

export interface ReadValues {
  sid: string;
  wid: number;
  cid: number;
  backend: boolean;
  scope?: number[];
}

/** The values of the read parameters as the driver takes them. */
export function readValueParams(v: ReadValues): Record<string, unknown> {
  return {
    sid: v.sid,
    wid: v.wid,
    cid: v.cid,
    backend: v.backend ? 'true' : 'false',
    scope: v.scope ? `{${v.scope.join(',')}}` : null,
  };
}

const key = (k: string) => sql.raw(`'${k}'`);

/** A store-view value of `t` (text), null when the store view keeps the default. */
function storeValue(t: ProductTable, p: ReadParams, k: string): SQL {
  return sql`(${t.storeValues} -> ${p.sid} ->> ${key(k)})`;
}

/** A text field in the store view: its override, else the default column. */
export function storeText(t: ProductTable, p: ReadParams, k: string, column: SQL | AnyColumn): SQL {
  return sql`coalesce(${storeValue(t, p, k)}, ${column})`;
}

export const storeName = (t: ProductTable, p: ReadParams) => storeText(t, p, 'name', t.name);
export const storeUrlKey = (t: ProductTable, p: ReadParams) => storeText(t, p, 'urlKey', t.urlKey);

/** Enabled in the store view (a store view may enable or disable the product for itself). */
export function storeActive(t: ProductTable, p: ReadParams): SQL {
  return sql`(CASE ${storeValue(t, p, 'isActive')} WHEN 'true' THEN true WHEN 'false' THEN false ELSE ${t.isActive} END)`;
}

/** Enabled in the store view and assigned to the request's website. */
export function sellable(t: ProductTable, p: ReadParams): SQL {
  return sql`(${storeActive(t, p)} AND ${p.wid} = ANY(${t.websiteIds}))`;
}

/** A product of a sub-resource (child, linked product) a caller may see: any for backend readers. */
function childVisible(t: ProductTable, p: ReadParams, needsVisibility = false): SQL {
  const visible = needsVisibility ? sql` AND ${t.visibility} <> 'not_visible'` : sql``;
  return sql`(${p.backend} OR (${sellable(t, p)}${visible}))`;
}

const utc = (col: SQL | AnyColumn) => sql`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')`;

/** Configurable, grouped and bundle products: whether any child is in stock (null for other types). */
function childInStock(t: ProductTable, p: ReadParams): SQL {
  const inStock = (id: SQL) => p.parts.sellableFromStock(id);
  return sql`(CASE ${t.type}
    WHEN 'configurable' THEN EXISTS (SELECT 1 FROM ${configurableChildren} k JOIN ${products} kp ON kp.id = k.child_id
      WHERE k.parent_id = ${t.id} AND kp.is_active AND ${inStock(sql`k.child_id`)})
    WHEN 'grouped' THEN EXISTS (SELECT 1 FROM ${groupedChildren} k JOIN ${products} kp ON kp.id = k.child_id
      WHERE k.parent_id = ${t.id} AND kp.is_active AND ${inStock(sql`k.child_id`)})
    WHEN 'bundle' THEN EXISTS (SELECT 1 FROM ${bundleOptions} bo JOIN ${bundleSelections} bs ON bs.option_id = bo.id
      JOIN ${products} kp ON kp.id = bs.product_id WHERE bo.product_id = ${t.id} AND kp.is_active AND ${inStock(sql`bs.product_id`)})
    END)`;
}

/**
 * In stock, as `isInStock` (read-view.ts) decides it from the read's columns: simple, virtual and downloadable
 * products when their stock row sells; configurable, grouped and bundle products when an enabled child is in stock
 * and their own row, if any, does not take them out of stock. Listing filters use it.
 */
export function inStockSql(t: ProductTable, p: ReadParams): SQL {
  const own = p.parts.sellableFromStock(t.id);
  return sql`(CASE WHEN ${t.type} IN ('configurable', 'grouped', 'bundle')
    THEN NOT (${p.parts.stockJson(t.id)} IS NOT NULL AND NOT ${own}) AND coalesce(${childInStock(t, p)}, false)
    ELSE ${own} END)`;
}

/** Images holding a role (image, small_image, thumbnail), best first. */
function roleImagesJson(idCol: SQL | AnyColumn): SQL {
  return sql`(SELECT json_agg(json_build_object('file', m.file, 'label', m.label, 'types', m.types) ORDER BY m.position, m.id)
    FROM ${productMedia} m WHERE m.product_id = ${idCol} AND cardinality(m.types) > 0)`;
}

/** The lowest group price of the caller's customer group (or all groups) on the store view's website, as text. */
function groupPriceSql(t: ProductTable, p: ReadParams): SQL {
  return sql`(SELECT min(g.price)::text FROM ${tierPrices} g WHERE g.product_id = ${t.id} AND g.is_group_price
    AND g.website_id IN (0, ${p.wid}) AND (g.customer_group_id IS NULL OR g.customer_group_id = ${customerGroupIdSql(p.cid)}))`;
}

/** The columns every product read has (list items and the detail). */
export function baseColumns(t: ProductTable, p: ReadParams): SQL {
  // the store view's review summary: what its review list shows; back-office reads of the defaults count all
  const reviews = p.parts.reviewSummary(t.id, sql`${p.sid}::int`);
  return sql`${t.id} AS "id", ${t.sku} AS "sku", ${t.type} AS "type", ${t.attributeSetId} AS "attributeSetId",
    ${t.taxClassId} AS "taxClassId", ${storeName(t, p)} AS "name", ${storeUrlKey(t, p)} AS "urlKey",
    ${storeActive(t, p)} AS "isActive", ${t.visibility} AS "visibility",
    ${storeText(t, p, 'description', t.description)} AS "description",
    ${storeText(t, p, 'shortDescription', t.shortDescription)} AS "shortDescription",
    ${storeText(t, p, 'metaTitle', t.metaTitle)} AS "metaTitle",
    ${storeText(t, p, 'metaDescription', t.metaDescription)} AS "metaDescription",
    ${storeText(t, p, 'metaKeywords', t.metaKeywords)} AS "metaKeywords",
    to_json(${t.websiteIds}) AS "websiteIds",
    ${t.price}::text AS "price", ${t.specialPrice}::text AS "specialPrice",
    ${t.specialFromDate}::text AS "specialFromDate", ${t.specialToDate}::text AS "specialToDate",
    ${t.newsFromDate}::text AS "newsFromDate", ${t.newsToDate}::text AS "newsToDate",
    ${t.cost}::text AS "cost", ${t.msrp}::text AS "msrp", ${t.weight}::text AS "weight",
    ${t.minPrice}::text AS "minPrice", ${t.maxPrice}::text AS "maxPrice",
    ${t.hasRequiredOptions} AS "hasRequiredOptions", ${t.skuType} AS "skuType", ${t.priceType} AS "priceType",
    ${t.weightType} AS "weightType", ${t.priceView} AS "priceView", ${t.shipmentType} AS "shipmentType",
    ${t.linksTitle} AS "linksTitle", ${t.linksPurchasedSeparately} AS "linksPurchasedSeparately",
    ${t.samplesTitle} AS "samplesTitle", ${t.attributes} AS "attributes",
    ${reviews.count} AS "reviewCount", ${reviews.average} AS "ratingSummary",
    ${utc(t.createdAt)} AS "createdAt", ${utc(t.updatedAt)} AS "updatedAt", ${groupPriceSql(t, p)} AS "groupPrice",
    (SELECT o.label FROM ${attributeOptions} o JOIN ${productAttributes} a ON a.id = o.attribute_id
      WHERE a.code = 'country_of_manufacture' AND o.id::text = ${t.attributes} ->> 'country_of_manufacture') AS "countryOfManufacture",
    ${p.parts.stockJson(t.id)} AS "stock", ${childInStock(t, p)} AS "childInStock", ${roleImagesJson(t.id)} AS "roleImages",
    (SELECT coalesce(json_agg(cp.category_id ORDER BY cp.category_id), '[]') FROM ${categoryProducts} cp
      WHERE cp.product_id = ${t.id}) AS "categoryIds"`;
}

/** A product shown inside another one (variant, linked, grouped or bundle product), as JSON. */
function childJson(p: ReadParams, extra: SQL = sql``): SQL {
  const c = child;
  return sql`json_build_object('id', ${c.id}, 'sku', ${c.sku}, 'type', ${c.type}, 'name', ${storeName(c, p)},
    'urlKey', ${storeUrlKey(c, p)}, 'price', ${c.price}::text, 'specialPrice', ${c.specialPrice}::text,
    'specialFromDate', ${c.specialFromDate}::text, 'specialToDate', ${c.specialToDate}::text, 'minPrice', ${c.minPrice}::text,
    'stock', ${p.parts.stockJson(c.id)}, 'childInStock', ${childInStock(c, p)}, 'roleImages', ${roleImagesJson(c.id)}${extra})`;
}

const jsonList = (agg: SQL) => sql`coalesce(${agg}, '[]')`;

/**
 * Every product shown inside the product `t` (variants, linked, grouped and bundle products) that the caller may
 * see, as one JSON object by id: each is read once, whatever the sub-resources naming it, which refer to it by id.
 */
function childrenJson(p: ReadParams): SQL {
  const t = products;
  const c = child;
  return sql`(SELECT json_object_agg(${c.id}, ${childJson(p)}) FROM ${childFrom}
      WHERE ${c.id} IN (SELECT cc.child_id FROM ${configurableChildren} cc WHERE cc.parent_id = ${t.id}
        UNION SELECT l.linked_product_id FROM ${productLinks} l WHERE l.product_id = ${t.id}
        UNION SELECT g.child_id FROM ${groupedChildren} g WHERE g.parent_id = ${t.id}
        UNION SELECT bs.product_id FROM ${bundleSelections} bs JOIN ${bundleOptions} bo ON bo.id = bs.option_id
          WHERE bo.product_id = ${t.id})
        AND ${childVisible(c, p)}) AS "children"`;
}

/**
 * The detail-only sub-resources of the product `t` (the outer query's products row), as JSON columns. Products
 * inside it are in "children" (see `childrenJson`); the sub-resources name them by id.
 */
export function detailColumns(p: ReadParams): SQL {
  const t = products;
  const c = child;
  const group = customerGroupIdSql(p.cid);
  const optionLabel = sql`coalesce(o.store_labels ->> ${p.sid}, o.label)`;
  return sql`${childrenJson(p)},
    (SELECT ${jsonList(sql`json_agg(json_build_object('qty', tp.qty::text, 'price', tp.price::text) ORDER BY tp.qty)`)}
      FROM (SELECT x.qty, min(x.price) AS price FROM ${tierPrices} x
        WHERE x.product_id = ${t.id} AND x.website_id IN (0, ${p.wid}) AND NOT x.is_group_price
          AND (x.customer_group_id IS NULL OR x.customer_group_id = ${group})
        GROUP BY x.qty) tp) AS "tierPrices",
    (SELECT ${jsonList(sql`json_agg(json_build_object('id', a.id, 'code', a.code, 'label', a.label, 'position', ca.position,
        'values', (SELECT ${jsonList(sql`json_agg(json_build_object('id', o.id, 'label', ${optionLabel}, 'swatchType', o.swatch_type,
            'swatchValue', o.swatch_value) ORDER BY o.sort_order, o.id)`)}
          FROM ${attributeOptions} o WHERE o.attribute_id = a.id AND EXISTS (
            SELECT 1 FROM ${configurableChildren} cc JOIN ${childFrom} ON ${c.id} = cc.child_id
            WHERE cc.parent_id = ${t.id} AND ${childVisible(c, p)} AND ${c.attributes} ->> a.code = o.id::text)))
        ORDER BY ca.position, a.id)`)}
      FROM ${configurableAttributes} ca JOIN ${productAttributes} a ON a.id = ca.attribute_id
      WHERE ca.product_id = ${t.id}) AS "configurableOptions",
    (SELECT ${jsonList(
      // the variant's values of the configurable attributes are picked from its attributes by the codes of
      // "configurableOptions" (the same attributes), rather than joining them once per variant
      sql`json_agg(json_build_object('id', ${c.id}, 'barcode', ${c.attributes} ->> 'barcode', 'attributes', ${c.attributes}) ORDER BY ${c.id})`,
    )}
      FROM ${configurableChildren} cc JOIN ${childFrom} ON ${c.id} = cc.child_id
      WHERE cc.parent_id = ${t.id} AND ${childVisible(c, p)}) AS "variants",
    (SELECT ${jsonList(sql`json_agg(json_build_object('id', o.id, 'title', o.title, 'type', o.type, 'required', o.required,
        'sortOrder', o.sort_order, 'price', o.price::text, 'priceType', o.price_type, 'sku', o.sku, 'maxCharacters', o.max_characters,
        'fileExtensions', o.file_extensions, 'imageSizeX', o.image_size_x, 'imageSizeY', o.image_size_y,
        'values', (SELECT ${jsonList(sql`json_agg(json_build_object('id', v.id, 'title', v.title, 'price', v.price::text,
            'priceType', v.price_type, 'sku', v.sku, 'sortOrder', v.sort_order) ORDER BY v.sort_order, v.id)`)}
          FROM ${customOptionValues} v WHERE v.option_id = o.id)) ORDER BY o.sort_order, o.id)`)}
      FROM ${customOptions} o WHERE o.product_id = ${t.id}) AS "customOptions",
    (SELECT ${jsonList(sql`json_agg(json_build_object('id', m.id, 'file', m.file, 'label', m.label, 'position', m.position,
        'types', m.types) ORDER BY m.position, m.id)`)}
      FROM ${productMedia} m WHERE m.product_id = ${t.id} AND NOT m.disabled) AS "mediaGallery",
    (SELECT ${jsonList(sql`json_agg(json_build_object('type', l.type, 'position', l.position, 'id', ${c.id})
        ORDER BY l.type, l.position, ${c.id})`)}
      FROM ${productLinks} l JOIN ${childFrom} ON ${c.id} = l.linked_product_id
      WHERE l.product_id = ${t.id} AND ${childVisible(c, p, true)}) AS "links",
    (SELECT ${jsonList(sql`json_agg(json_build_object('qty', g.qty::text, 'position', g.position, 'id', ${c.id})
        ORDER BY g.position, ${c.id})`)}
      FROM ${groupedChildren} g JOIN ${childFrom} ON ${c.id} = g.child_id
      WHERE g.parent_id = ${t.id} AND ${childVisible(c, p)}) AS "groupedProducts",
    (SELECT ${jsonList(sql`json_agg(json_build_object('id', bo.id, 'title', bo.title, 'type', bo.type, 'required', bo.required,
        'position', bo.position,
        'selections', (SELECT ${jsonList(sql`json_agg(json_build_object('id', bs.id, 'qty', bs.qty::text, 'canChangeQty', bs.can_change_qty,
            'isDefault', bs.is_default, 'position', bs.position, 'price', bs.price::text, 'priceType', bs.price_type,
            'productId', ${c.id}) ORDER BY bs.position, bs.id)`)}
          FROM ${bundleSelections} bs JOIN ${childFrom} ON ${c.id} = bs.product_id
          WHERE bs.option_id = bo.id AND ${childVisible(c, p)})) ORDER BY bo.position, bo.id)`)}
      FROM ${bundleOptions} bo WHERE bo.product_id = ${t.id}) AS "bundleOptions",
    (SELECT ${jsonList(sql`json_agg(json_build_object('id', d.id, 'title', d.title, 'price', d.price::text, 'sortOrder', d.sort_order,
        'numberOfDownloads', d.number_of_downloads, 'sampleType', d.sample_type, 'sampleUrl', d.sample_url, 'sampleFile', d.sample_file) ORDER BY d.sort_order, d.id)`)}
      FROM ${downloadableLinks} d WHERE d.product_id = ${t.id}) AS "downloadableLinks",
    (SELECT ${jsonList(sql`json_agg(json_build_object('code', a.code, 'label', a.label, 'input', a.frontend_input,
        'value', ${t.attributes} -> a.code,
        'options', (SELECT json_object_agg(o.id::text, ${optionLabel}) FROM ${attributeOptions} o WHERE o.attribute_id = a.id
          AND a.frontend_input IN ('select', 'multiselect')
          AND o.id::text IN (SELECT jsonb_array_elements_text(CASE jsonb_typeof(${t.attributes} -> a.code)
            WHEN 'array' THEN ${t.attributes} -> a.code ELSE jsonb_build_array(${t.attributes} -> a.code) END))))
        ORDER BY a.position, a.id)`)}
      FROM ${productAttributes} a WHERE a.is_visible_on_front AND NOT a.is_system
        AND jsonb_typeof(${t.attributes} -> a.code) IN ('string', 'number', 'boolean', 'array')) AS "additionalAttributes"`;
}

/** A backend reader limited to some store views sees the products of their websites only. */
export function inScope(p: ReadParams): SQL {
  return sql`(${p.scope} IS NULL OR ${products.websiteIds} && ${p.scope})`;
}

/**
 * Who may see the product itself: backend readers any (in their websites when limited to some store views);
 * others an enabled, individually visible product of their website.
 */
export function readable(p: ReadParams): SQL {
  return sql`((${p.backend} AND ${inScope(p)}) OR (${sellable(products, p)} AND ${products.visibility} <> 'not_visible'))`;
}
