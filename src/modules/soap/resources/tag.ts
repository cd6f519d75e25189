/**
 * `catalog_product_tag` (`product_tag`) of the Magento 1 API: a product's tags (list), a tag with its base
 * popularity and its products' popularity in a store view (info), tagging a product for a customer (add), renaming,
 * moderating and the base popularity (update), and deleting (remove), over the tags module's services, with
 * Magento's arguments, fields, statuses (1 approved, 0 pending, -1 disabled) and fault codes. Store views by id or
 * code; none (or the default values, 0) covers every store view, or a store-limited API user's own.
 */
import type { Ctx } from '../../../platform/context.js';
import { adminWebsiteScope } from '../../../platform/context.js';
import { productsByIdOrSku } from '../../catalog/products/legacy-keys.js';
import { assertCustomerExists } from '../../customers/service.js';
import { applyTags } from '../../tags/customer.js';
import { legacyStores, tagForStaff, tagsOnProduct, tagUses } from '../../tags/read.js';
import type { TagStatus, TagUpdateBody } from '../../tags/schemas.js';
import { MAX_NAME, tagNames } from '../../tags/words.js';
import { deleteTag, updateTag } from '../../tags/write.js';
import { storeIdOf } from '../current-store.js';
import { isRecord } from '../encoding.js';
import { defineResource, idArg, resourceFault, serviceFault, type LegacyValue } from '../resources.js';

const STATUS_CODES: Record<TagStatus, number> = { approved: 1, pending: 0, disabled: -1 };
const STATUS_OF = new Map<number, TagStatus>(Object.entries(STATUS_CODES).map(([s, n]) => [n, s as TagStatus]));

const given = (v: LegacyValue | undefined) => v !== undefined && v !== null;

/** The store view of a `store` argument: undefined for none given or the default values (0). */
function storeOf(ctx: Ctx, store: LegacyValue | undefined): number | undefined {
  if (!given(store)) return undefined;
  return storeIdOf(ctx, store!, tag) || undefined;
}

/** The product an id (or, not reading as one, a SKU) names, in a store-limited user's websites; fault 102 otherwise. */
async function productOf(ctx: Ctx, ref: LegacyValue | undefined): Promise<number> {
  const text = typeof ref === 'number' ? String(ref) : typeof ref === 'string' ? ref.trim() : '';
  const id = idArg(text);
  const { byId, bySku } = await productsByIdOrSku(ctx, id === undefined ? [] : [id], text ? [text] : [], adminWebsiteScope(ctx));
  const found = id !== undefined ? byId.get(id) : bySku.get(text.toLowerCase());
  if (!found) throw resourceFault(tag, 'product_not_exists');
  return found.id;
}

async function tagOf(ctx: Ctx, tagId: LegacyValue | undefined, storeId: number) {
  const id = idArg(tagId);
  const row = id === undefined ? undefined : await tagForStaff(ctx, id, storeId);
  if (!row) throw resourceFault(tag, 'tag_not_exists');
  return row;
}

/** A whole number of 0 or more as sent (10, "10"), else undefined. */
function count(v: LegacyValue | undefined): number | undefined {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  return /^\d{1,9}$/.test(s) ? Number(s) : undefined;
}

const asFault = (err: unknown, invalid: string): never =>
  serviceFault(tag, err, { missing: 'tag_not_exists', forbidden: 'access_denied', invalid });

export const tag = defineResource({
  name: 'catalog_product_tag',
  title: 'Product Tag API',
  aliases: ['product_tag'],
  faults: {
    store_not_exists: ['101', 'Requested store does not exist.'],
    product_not_exists: ['102', 'Requested product does not exist.'],
    customer_not_exists: ['103', 'Requested customer does not exist.'],
    tag_not_exists: ['104', 'Requested tag does not exist.'],
    invalid_data: ['105', 'Provided data is invalid.'],
    save_error: ['106', 'Error while saving tag. Details in error message.'],
    remove_error: ['107', 'Error while removing tag. Details in error message.'],
  },
  methods: {
    list: {
      title: 'Retrieve list of tags by product',
      permission: ['tags', 'read'],
      params: ['productId', 'store'],
      run: async (ctx, [productId, store]) => {
        const id = await productOf(ctx, productId);
        const found = await tagsOnProduct(ctx, id, legacyStores(ctx, storeOf(ctx, store)));
        if (!found.length) return [];
        return new Map<string, LegacyValue>(
          found.map((t) => [
            String(t.id),
            new Map<string, LegacyValue>([
              ['tag_id', t.id],
              ['name', t.name],
            ]),
          ]),
        );
      },
    },
    info: {
      title: 'Retrieve product tag info',
      permission: ['tags', 'read'],
      params: ['tagId', 'store'],
      run: async (ctx, [tagId, store]) => {
        const storeId = storeOf(ctx, store);
        const row = await tagOf(ctx, tagId, storeId ?? 0);
        const uses = await tagUses(ctx, row.id, legacyStores(ctx, storeId));
        return new Map<string, LegacyValue>([
          ['status', STATUS_CODES[row.status]],
          ['name', row.name],
          ['base_popularity', Number(row.basePopularity ?? 0)],
          ['products', uses.length ? new Map<string, LegacyValue>(uses.map((u) => [String(u.productId), Number(u.popularity)])) : []],
        ]);
      },
    },
    add: {
      title: 'Add tag(s) to product',
      permission: ['tags', 'create'],
      params: ['data'],
      run: async (ctx, [data]) => {
        const get = (k: string) => (isRecord(data) ? data.get(k) : undefined);
        const text = get('tag');
        if (
          !['product_id', 'tag', 'customer_id', 'store'].every((k) => given(get(k))) ||
          (typeof text !== 'string' && typeof text !== 'number')
        ) {
          throw resourceFault(tag, 'invalid_data');
        }
        const productId = await productOf(ctx, get('product_id'));
        const customerId = idArg(get('customer_id'));
        if (customerId === undefined) throw resourceFault(tag, 'customer_not_exists');
        await assertCustomerExists(ctx, customerId).catch(() => {
          throw resourceFault(tag, 'customer_not_exists');
        });
        const storeId = storeIdOf(ctx, get('store')!, tag);
        if (!storeId) throw resourceFault(tag, 'store_not_exists');
        const names = tagNames(String(text));
        if (!names.length) return [];
        try {
          const added = await applyTags(ctx, { productId, customerId, storeId, names });
          return new Map<string, LegacyValue>(added.map((a, i) => [names[i], a.id]));
        } catch (err) {
          return asFault(err, 'save_error');
        }
      },
    },
    update: {
      title: 'Update product tag',
      permission: ['tags', 'write'],
      params: ['tagId', 'data', 'store'],
      run: async (ctx, [tagId, data, store]) => {
        const get = (k: string) => (isRecord(data) ? data.get(k) : undefined);
        if (!['name', 'status', 'base_popularity'].some((k) => given(get(k)))) throw resourceFault(tag, 'invalid_data');
        const storeId = storeOf(ctx, store);
        const row = await tagOf(ctx, tagId, storeId ?? 0);
        const body: TagUpdateBody = {};
        if (given(get('status'))) {
          const code = Number(get('status'));
          const status = typeof get('status') === 'boolean' || !Number.isInteger(code) ? undefined : STATUS_OF.get(code);
          if (!status) throw resourceFault(tag, 'invalid_data');
          body.status = status;
        }
        if (given(get('name'))) {
          // Magento trims the name and cuts it at 255 characters
          body.name = [...String(get('name')).trim()].slice(0, MAX_NAME).join('');
        }
        // the base popularity is of a store view: with none (the default values) Magento keeps none
        if (given(get('base_popularity')) && storeId !== undefined) {
          const value = count(get('base_popularity'));
          if (value === undefined) throw resourceFault(tag, 'invalid_data');
          body.basePopularity = value;
          body.storeId = storeId;
        }
        if (body.name === undefined && body.status === undefined && body.basePopularity === undefined) return true;
        try {
          await updateTag(ctx, row.id, body);
        } catch (err) {
          asFault(err, 'save_error');
        }
        return true;
      },
    },
    remove: {
      title: 'Remove product tag',
      permission: ['tags', 'delete'],
      params: ['tagId'],
      run: async (ctx, [tagId]) => {
        const id = idArg(tagId);
        if (id === undefined) throw resourceFault(tag, 'tag_not_exists');
        try {
          await deleteTag(ctx, id);
        } catch (err) {
          asFault(err, 'remove_error');
        }
        return true;
      },
    },
  },
});
