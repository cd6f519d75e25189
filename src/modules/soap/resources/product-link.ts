/**
 * `catalog_product_link` (`product_link`) of the Magento 1 API: related products, up-sells and cross-sells over the
 * catalog's link service, and the children of grouped products (type `grouped`, with their `qty`) over the grouped
 * product service. `assign` sets a link's attributes (those not sent go back to their defaults), `update` changes
 * the attributes sent (and links a product not yet linked when it sends any), `remove` of a product that is not
 * linked does nothing, as Magento's do. The linked product is named by SKU, else by id; the product by id or SKU
 * (`identifierType`). A write reads and replaces the product's links of that type under the product's lock.
 */
import { withTx, type Ctx } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { dec } from '../../../platform/money.js';
import { legacyDecimal, legacyInt, legacyLinkedProduct, legacyProduct } from '../../catalog/product-extras/legacy.js';
import { listProductLinks, removeProductLink, replaceProductLinks, type LinkKind } from '../../catalog/product-extras/links-service.js';
import { listGroupedChildren, removeGroupedChild, replaceGroupedChildren } from '../../catalog/product-types/grouped-service.js';
import { productsByIdOrSku } from '../../catalog/products/legacy-keys.js';
import { lockProduct } from '../../catalog/products/subresource-shared.js';
import { isRecord } from '../encoding.js';
import { defineResource, resourceFault, type LegacyValue } from '../resources.js';

/** Magento's link types and the kind of link each is here (grouped: the children of a grouped product). */
const TYPES: Record<string, LinkKind | 'grouped'> = {
  related: 'related',
  up_sell: 'up-sell',
  cross_sell: 'cross-sell',
  grouped: 'grouped',
};
const INT_MAX = 2147483647;

const rec = (entries: [string, LegacyValue][]) => new Map<string, LegacyValue>(entries);
const fault = (name: string, detail?: string) => resourceFault(productLink, name, detail);

function kindOf(type: LegacyValue | undefined): LinkKind | 'grouped' {
  if (typeof type !== 'string' || !Object.hasOwn(TYPES, type)) throw fault('type_not_exists');
  return TYPES[type];
}

async function productOf(ctx: Ctx, ref: LegacyValue | undefined, identifierType: LegacyValue | undefined) {
  const p = await legacyProduct(ctx, ref, identifierType);
  if (!p) throw fault('product_not_exists');
  return p;
}

/** One link as both services' lists give it: the linked product, its position and (grouped) its quantity. */
interface Link {
  id: number;
  position: number;
  qty?: number;
}

async function linksOf(ctx: Ctx, productId: number, kind: LinkKind | 'grouped'): Promise<Link[]> {
  if (kind === 'grouped') {
    return (await listGroupedChildren(ctx, productId)).map((c) => ({ id: c.childProductId, position: c.position, qty: c.qty }));
  }
  return (await listProductLinks(ctx, productId, kind)).map((l) => ({ id: l.linkedProductId, position: l.position }));
}

/** The link attributes sent (position; qty for grouped), checked; fault 102 for a value of the wrong kind. */
function attributesOf(data: LegacyValue | undefined, kind: LinkKind | 'grouped'): { position?: number; qty?: number } {
  if (data === undefined || data === null || (Array.isArray(data) && !data.length)) return {};
  if (!isRecord(data)) throw fault('data_invalid', 'Link data must be a struct.');
  const position = legacyInt(data.get('position'), 0, INT_MAX);
  if (Number.isNaN(position)) throw fault('data_invalid', 'position must be a whole number of at least 0.');
  const qty = kind === 'grouped' ? legacyDecimal(data.get('qty')) : undefined;
  if (qty === null) throw fault('data_invalid', 'qty must be a number.');
  return { ...(position !== undefined ? { position } : {}), ...(qty !== undefined ? { qty } : {}) };
}

function failed(err: unknown, otherwise: string): never {
  if (err instanceof AppError && err.status === 404) throw fault('product_not_exists');
  if (err instanceof AppError && err.status < 500) throw fault(otherwise, err.message);
  throw err;
}

async function write(ctx: Ctx, args: (LegacyValue | undefined)[], mode: 'assign' | 'update'): Promise<true> {
  const [type, productId, linkedProductId, data, identifierType] = args;
  const kind = kindOf(type);
  const p = await productOf(ctx, productId, identifierType);
  const attrs = attributesOf(data, kind);
  const sent = Object.keys(attrs).length > 0;
  const linked = await legacyLinkedProduct(ctx, linkedProductId);
  if (!linked) {
    if (mode === 'update' && !sent) return true;
    throw fault('data_invalid', 'Link product does not exist.');
  }
  try {
    await withTx(ctx, async (tx) => {
      await lockProduct(tx, p.id);
      const links = await linksOf(tx, p.id, kind);
      const current = links.find((l) => l.id === linked.id);
      if (mode === 'update' && !current && !sent) return;
      const next: Link =
        mode === 'update' && current
          ? { ...current, ...attrs }
          : { id: linked.id, position: attrs.position ?? 0, ...(kind === 'grouped' ? { qty: attrs.qty ?? 0 } : {}) };
      const list = current ? links.map((l) => (l === current ? next : l)) : [...links, next];
      if (kind === 'grouped') {
        await replaceGroupedChildren(
          tx,
          p.id,
          list.map((l) => ({ childProductId: l.id, position: l.position, qty: l.qty })),
        );
      } else {
        await replaceProductLinks(
          tx,
          p.id,
          kind,
          list.map((l) => ({ linkedProductId: l.id, position: l.position })),
        );
      }
    });
  } catch (err) {
    return failed(err, 'data_invalid');
  }
  return true;
}

const read = ['products', 'read'] as [string, 'read'];
const change = ['products', 'write'] as [string, 'write'];

export const productLink = defineResource({
  name: 'catalog_product_link',
  title: 'Product links API (related, cross sells, up sells)',
  aliases: ['product_link'],
  faults: {
    type_not_exists: ['100', 'Given invalid link type.'],
    product_not_exists: ['101', 'Product not exists.'],
    data_invalid: ['102', 'Invalid data given. Details in error message.'],
    not_removed: ['104', 'Product link not removed.'],
  },
  methods: {
    list: {
      title: 'Retrieve linked products',
      permission: read,
      params: ['type', 'productId', 'identifierType'],
      run: async (ctx, [type, productId, identifierType]) => {
        const kind = kindOf(type);
        const p = await productOf(ctx, productId, identifierType);
        // only a grouped product has children
        if (kind === 'grouped' && p.type !== 'grouped') return [];
        let links: Link[];
        try {
          links = await linksOf(ctx, p.id, kind);
        } catch (err) {
          return failed(err, 'data_invalid');
        }
        const { byId } = await productsByIdOrSku(
          ctx,
          links.map((l) => l.id),
          [],
        );
        return links.flatMap((l) => {
          const linked = byId.get(l.id);
          if (!linked) return [];
          const row: [string, LegacyValue][] = [
            ['product_id', linked.id],
            ['type', linked.type],
            ['set', linked.attributeSetId],
            ['sku', linked.sku],
            ['position', l.position],
          ];
          if (l.qty !== undefined) row.push(['qty', dec(l.qty).toFixed(4)]);
          return [rec(row)];
        });
      },
    },
    assign: {
      title: 'Assign product link',
      permission: change,
      params: ['type', 'productId', 'linkedProductId', 'data', 'identifierType'],
      run: (ctx, args) => write(ctx, args, 'assign'),
    },
    update: {
      title: 'Update product link',
      permission: change,
      params: ['type', 'productId', 'linkedProductId', 'data', 'identifierType'],
      run: (ctx, args) => write(ctx, args, 'update'),
    },
    remove: {
      title: 'Remove product link',
      permission: change,
      params: ['type', 'productId', 'linkedProductId', 'identifierType'],
      run: async (ctx, [type, productId, linkedProductId, identifierType]) => {
        const kind = kindOf(type);
        const p = await productOf(ctx, productId, identifierType);
        const linked = await legacyLinkedProduct(ctx, linkedProductId);
        // a product that is not linked (or not a product) is removed already; so is a child of a product that is not grouped
        if (!linked || (kind === 'grouped' && p.type !== 'grouped')) return true;
        try {
          if (kind === 'grouped') await removeGroupedChild(ctx, p.id, linked.id);
          else await removeProductLink(ctx, p.id, kind, linked.id);
        } catch (err) {
          if (err instanceof AppError && (err.reason === 'LINK_NOT_FOUND' || err.reason === 'CHILD_NOT_FOUND')) return true;
          return failed(err, 'not_removed');
        }
        return true;
      },
    },
    types: {
      title: 'Retrieve product link types',
      permission: read,
      params: [],
      run: async () => Object.keys(TYPES),
    },
    attributes: {
      title: 'Retrieve product link type attributes',
      permission: read,
      params: ['type'],
      run: async (_ctx, [type]) => {
        const kind = kindOf(type);
        const attrs: [string, string][] =
          kind === 'grouped'
            ? [
                ['position', 'int'],
                ['qty', 'decimal'],
              ]
            : [['position', 'int']];
        return attrs.map(([code, t]) =>
          rec([
            ['code', code],
            ['type', t],
          ]),
        );
      },
    },
  },
});
