/**
 * `catalog_product_custom_option` (`product_custom_option`) and `catalog_product_custom_option_value`
 * (`product_custom_option_value`) of the Magento 1 API, over the catalog's custom option services. Options and
 * values are named by their own ids, as Magento names them; their product by id or SKU. An option's
 * `additional_fields` are its price, price type, SKU and type fields (one row), or for a select type its values
 * (one row each, `value_id` naming one to change). Updates change what they send: values not sent are kept. Every
 * write reads and rewrites the option under its product's lock, so that clients writing at once lose nothing.
 * Titles and prices are kept once for every store view: a `store` argument is checked, its values are those of
 * every store view. Text values lose their HTML tags, as Magento strips them.
 */
import { withTx, type Ctx } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { dec } from '../../../platform/money.js';
import { legacyFlag, legacyProduct, legacyStore } from '../../catalog/product-extras/legacy.js';
import {
  defined,
  intArg,
  legacyOption,
  legacyOptionRows,
  legacyOptionValue,
  priceArg,
  priceTypeArg,
  storedValue,
  stripTags,
  textArg,
  valueInput,
  type Bad,
  type LegacyOptionRow,
  type LegacyValueRow,
} from '../../catalog/product-extras/legacy-options.js';
import {
  OPTION_TYPES,
  type CustomOptionUpdateInput,
  type CustomOptionValueInputT,
  type OptionType,
} from '../../catalog/product-extras/custom-options-schemas.js';
import { isSelectType, valuesOf } from '../../catalog/product-extras/custom-options-service.js';
import { createCustomOption, deleteCustomOption, updateCustomOption } from '../../catalog/product-extras/custom-options-write.js';
import { lockProduct, requireReadableProduct } from '../../catalog/products/subresource-shared.js';
import { isRecord, type SoapRecord } from '../encoding.js';
import { defineResource, idArg, resourceFault, type LegacyResource, type LegacyValue } from '../resources.js';

const LABELS: Record<OptionType, string> = {
  field: 'Field',
  area: 'Area',
  file: 'File',
  drop_down: 'Drop-down',
  radio: 'Radio Buttons',
  checkbox: 'Checkbox',
  multiple: 'Multiple Select',
  date: 'Date',
  date_time: 'Date & Time',
  time: 'Time',
};
const INT_MAX = 2147483647;

const rec = (entries: [string, LegacyValue][]) => new Map<string, LegacyValue>(entries);
const money = (v: string | null) => (v === null ? null : dec(v).toFixed(4));
function typeOf(v: LegacyValue | undefined): OptionType {
  if (typeof v !== 'string' || !(OPTION_TYPES as readonly string[]).includes(v)) throw option.fault('invalid_type');
  return v as OptionType;
}

/**
 * An option's data as the service's input: title, is_require, sort_order, and the `additional_fields` of its
 * type (`rows`: the rows of a select type). `needRows`: add, where Magento requires them.
 */
function optionInput(data: SoapRecord, type: OptionType, needRows: boolean): { input: CustomOptionUpdateInput; rows?: SoapRecord[] } {
  const bad: Bad = (d) => {
    throw option.fault('save_option_error', d);
  };
  const invalid = () => option.fault('invalid_data');
  const required = legacyFlag(data.get('is_require'));
  if (required === null) bad('is_require must be 0 or 1.');
  const input: CustomOptionUpdateInput = defined({
    title: textArg(data.get('title'), 'title', 255, bad),
    required: required ?? undefined,
    sortOrder: intArg(data.get('sort_order'), 'sort_order', -INT_MAX, bad),
  });
  const af = data.get('additional_fields');
  if (af === undefined || af === null) {
    if (needRows) throw invalid();
    return { input };
  }
  if (!Array.isArray(af) || (needRows && !af.length) || af.some((r) => !isRecord(r) || !r.size)) throw invalid();
  const rows = af as SoapRecord[];
  if (isSelectType(type)) return { input, rows };
  if (!rows.length) return { input };
  const [f] = rows;
  const sku = textArg(f.get('sku'), 'sku', 64, bad);
  Object.assign(
    input,
    defined({
      price: priceArg(f.get('price'), 'price', bad),
      priceType: priceTypeArg(f.get('price_type'), bad),
      sku: sku === undefined ? undefined : sku || null,
      maxCharacters: type === 'field' || type === 'area' ? intArg(f.get('max_characters'), 'max_characters', 0, bad) : undefined,
      fileExtensions: type === 'file' ? textArg(f.get('file_extension'), 'file_extension', 255, bad) : undefined,
      imageSizeX: type === 'file' ? intArg(f.get('image_size_x'), 'image_size_x', 0, bad) : undefined,
      imageSizeY: type === 'file' ? intArg(f.get('image_size_y'), 'image_size_y', 0, bad) : undefined,
    }),
  );
  return { input };
}

/** A refusal of the services as `r`'s fault: the product, the option or the value missing, else `otherwise`. */
function failed(r: LegacyResource, err: unknown, otherwise: string, missing: Record<string, string>): never {
  if (!(err instanceof AppError) || err.status >= 500) throw err;
  const name = missing[err.reason] ?? (err.status === 404 ? Object.values(missing)[0] : undefined);
  throw name ? resourceFault(r, name) : resourceFault(r, otherwise, err.message);
}

async function optionById(ctx: Ctx, optionId: LegacyValue | undefined, r: LegacyResource): Promise<LegacyOptionRow> {
  const id = idArg(optionId);
  const row = id === undefined ? undefined : await legacyOption(ctx, id);
  if (!row) throw resourceFault(r, 'option_not_exists');
  return row;
}

/** Under the option's product's lock: the option as it is now (fault when gone) and its values. */
async function lockedOption(tx: Ctx, opt: LegacyOptionRow, r: LegacyResource): Promise<{ row: LegacyOptionRow; values: LegacyValueRow[] }> {
  await lockProduct(tx, opt.productId);
  const row = await legacyOption(tx, opt.id);
  if (!row || row.productId !== opt.productId) throw resourceFault(r, 'option_not_exists');
  return { row, values: isSelectType(row.type) ? ((await valuesOf(tx, [row.id])).get(row.id) ?? []) : [] };
}

function storeArg(ctx: Ctx, store: LegacyValue | undefined, r: LegacyResource): void {
  if (legacyStore(ctx, store) === undefined) throw resourceFault(r, 'store_not_exists');
}

const valueRecord = (v: LegacyValueRow) =>
  rec([
    ['value_id', v.id],
    ['title', v.title],
    ['price', money(v.price)],
    ['price_type', v.priceType],
    ['sku', v.sku],
    ['sort_order', v.sortOrder],
  ]);

function optionInfo(o: LegacyOptionRow, values: LegacyValueRow[]): LegacyValue {
  let fields: LegacyValue[];
  if (isSelectType(o.type)) fields = values.map(valueRecord);
  else {
    const f: [string, LegacyValue][] = [
      ['price', money(o.price ?? '0')],
      ['price_type', o.priceType],
      ['sku', o.sku],
    ];
    if (o.type === 'field' || o.type === 'area') f.push(['max_characters', o.maxCharacters]);
    if (o.type === 'file') f.push(['file_extension', o.fileExtensions], ['image_size_x', o.imageSizeX], ['image_size_y', o.imageSizeY]);
    fields = [rec(f)];
  }
  return rec([
    ['title', o.title],
    ['type', o.type],
    ['is_require', o.required ? 1 : 0],
    ['sort_order', o.sortOrder],
    ['additional_fields', fields],
  ]);
}

const OPTION_MISSING = { PRODUCT_NOT_FOUND: 'product_not_exists', OPTION_NOT_FOUND: 'option_not_exists' };

const option = {
  fault: (name: string, detail?: string) => resourceFault(productCustomOption, name, detail),
};

export const productCustomOption = defineResource({
  name: 'catalog_product_custom_option',
  title: 'Catalog product custom options API',
  aliases: ['product_custom_option'],
  faults: {
    product_not_exists: ['101', 'Product with requested id does not exist.'],
    invalid_data: ['102', 'Provided data is invalid.'],
    save_option_error: ['103', 'Error while saving an option. Details are in the error message.'],
    store_not_exists: ['104', 'Store with requested code/id does not exist.'],
    option_not_exists: ['105', 'Option with requested id does not exist.'],
    invalid_type: ['106', "Invalid option type provided. Call 'types' to get list of allowed option types."],
    delete_option_error: ['107', 'Error while deleting an option. Details are in the error message.'],
  },
  methods: {
    add: {
      title: 'Add new custom option into product',
      permission: ['products', 'write'],
      params: ['productId', 'data', 'store'],
      run: async (ctx, [productId, data, store]) => {
        storeArg(ctx, store, productCustomOption);
        const p = await legacyProduct(ctx, productId, undefined);
        if (!p) throw option.fault('product_not_exists');
        if (!isRecord(data) || !Array.isArray(data.get('additional_fields')) || !(data.get('additional_fields') as []).length) {
          throw option.fault('invalid_data');
        }
        const type = typeOf(data.get('type'));
        const bad: Bad = (d) => {
          throw option.fault('save_option_error', d);
        };
        const { input, rows } = optionInput(data, type, true);
        try {
          await createCustomOption(ctx, p.id, {
            ...input,
            title: input.title ?? '',
            type,
            values: rows?.map((r) => valueInput(r, bad)),
          });
        } catch (err) {
          failed(productCustomOption, err, 'save_option_error', OPTION_MISSING);
        }
        return true;
      },
    },
    update: {
      title: 'Update custom option of product',
      permission: ['products', 'write'],
      params: ['optionId', 'data', 'store'],
      run: async (ctx, [optionId, data, store]) => {
        const opt = await optionById(ctx, optionId, productCustomOption);
        storeArg(ctx, store, productCustomOption);
        if (!isRecord(data)) throw option.fault('invalid_data');
        const type = data.get('type') === undefined || data.get('type') === null ? (opt.type as OptionType) : typeOf(data.get('type'));
        const { input, rows } = optionInput(data, type, false);
        const bad: Bad = (d) => {
          throw option.fault('save_option_error', d);
        };
        try {
          await withTx(ctx, async (tx) => {
            const { row, values } = await lockedOption(tx, opt, productCustomOption);
            let list: CustomOptionValueInputT[] | undefined;
            if (rows && isSelectType(type)) {
              list = values.map((v) => storedValue(v, bad));
              for (const r of rows) {
                const id = r.get('value_id');
                if (id === undefined || id === null || id === '') {
                  list.push(valueInput(r, bad));
                  continue;
                }
                const at = list.findIndex((v) => v.id === idArg(id));
                if (at < 0) bad(`value_id ${String(id)} is not a value of this option.`);
                list[at] = valueInput(r, bad, list[at]);
              }
            }
            await updateCustomOption(tx, row.productId, row.id, { ...input, type, ...(list ? { values: list } : {}) });
          });
        } catch (err) {
          failed(productCustomOption, err, 'save_option_error', OPTION_MISSING);
        }
        return true;
      },
    },
    types: {
      title: 'Get list of available custom option types',
      permission: ['products', 'read'],
      params: [],
      run: async () =>
        OPTION_TYPES.map((t) =>
          rec([
            ['label', LABELS[t]],
            ['value', t],
          ]),
        ),
    },
    info: {
      title: 'Get full information about custom option in product',
      permission: ['products', 'read'],
      params: ['optionId', 'store'],
      run: async (ctx, [optionId, store]) => {
        const opt = await optionById(ctx, optionId, productCustomOption);
        storeArg(ctx, store, productCustomOption);
        try {
          await requireReadableProduct(ctx, opt.productId);
        } catch (err) {
          failed(productCustomOption, err, 'option_not_exists', OPTION_MISSING);
        }
        const values = isSelectType(opt.type) ? ((await valuesOf(ctx, [opt.id])).get(opt.id) ?? []) : [];
        return optionInfo(opt, values);
      },
    },
    list: {
      title: 'Retrieve list of product custom options',
      permission: ['products', 'read'],
      params: ['productId', 'store'],
      run: async (ctx, [productId, store]) => {
        storeArg(ctx, store, productCustomOption);
        const p = await legacyProduct(ctx, productId, undefined);
        if (!p) throw option.fault('product_not_exists');
        let rows: LegacyOptionRow[] = [];
        try {
          rows = await legacyOptionRows(ctx, p.id);
        } catch (err) {
          failed(productCustomOption, err, 'product_not_exists', OPTION_MISSING);
        }
        return rows.map((o) =>
          rec([
            ['option_id', o.id],
            ['title', o.title],
            ['type', o.type],
            ['is_require', o.required ? 1 : 0],
            ['sort_order', o.sortOrder],
          ]),
        );
      },
    },
    remove: {
      title: 'Remove custom option',
      permission: ['products', 'write'],
      params: ['optionId'],
      run: async (ctx, [optionId]) => {
        const opt = await optionById(ctx, optionId, productCustomOption);
        try {
          await deleteCustomOption(ctx, opt.productId, opt.id);
        } catch (err) {
          failed(productCustomOption, err, 'delete_option_error', OPTION_MISSING);
        }
        return true;
      },
    },
  },
});

// ---- option values ----

const VALUE_MISSING = { OPTION_NOT_FOUND: 'option_not_exists', PRODUCT_NOT_FOUND: 'option_not_exists' };
const valueFault = (name: string, detail?: string) => resourceFault(productCustomOptionValue, name, detail);

/** Magento's option of a values call: the store view first, then an existing option of a select type. */
async function selectOption(ctx: Ctx, optionId: LegacyValue | undefined, store: LegacyValue | undefined): Promise<LegacyOptionRow> {
  storeArg(ctx, store, productCustomOptionValue);
  const opt = await optionById(ctx, optionId, productCustomOptionValue);
  if (!isSelectType(opt.type)) throw valueFault('invalid_option_type');
  return opt;
}

async function valueById(ctx: Ctx, valueId: LegacyValue | undefined) {
  const id = idArg(valueId);
  const found = id === undefined ? undefined : await legacyOptionValue(ctx, id);
  if (!found) throw valueFault('value_not_exists');
  return found;
}

/** Rewrites a select option's values under its product's lock: `change` maps the stored ones to the new list. */
async function rewriteValues(
  ctx: Ctx,
  opt: LegacyOptionRow,
  otherwise: string,
  change: (values: CustomOptionValueInputT[], bad: Bad) => CustomOptionValueInputT[],
): Promise<true> {
  const bad: Bad = (d) => {
    throw valueFault(otherwise, d);
  };
  try {
    await withTx(ctx, async (tx) => {
      const { row, values } = await lockedOption(tx, opt, productCustomOptionValue);
      if (!isSelectType(row.type)) throw valueFault('invalid_option_type');
      await updateCustomOption(tx, row.productId, row.id, {
        values: change(
          values.map((v) => storedValue(v, bad)),
          bad,
        ),
      });
    });
  } catch (err) {
    failed(productCustomOptionValue, err, otherwise, VALUE_MISSING);
  }
  return true;
}

export const productCustomOptionValue = defineResource({
  name: 'catalog_product_custom_option_value',
  title: 'Catalog product custom option values API',
  aliases: ['product_custom_option_value'],
  faults: {
    value_not_exists: ['101', 'Option value with requested id does not exist.'],
    add_option_value_error: ['102', 'Error while adding an option value. Details are in the error message.'],
    option_not_exists: ['103', 'Option with requested id does not exist.'],
    invalid_option_type: ['104', 'Invalid option type.'],
    store_not_exists: ['105', 'Store with requested code/id does not exist.'],
    can_not_delete: ['106', 'Can not delete option.'],
    update_option_value_error: ['107', 'Error while updating an option value. Details are in the error message.'],
    option_value_title_required: ['108', 'Title field is required.'],
    cant_delete_last_value: ['109', 'Option should have at least one value. Can not delete last value.'],
  },
  methods: {
    list: {
      title: 'Retrieve list of option values',
      permission: ['products', 'read'],
      params: ['optionId', 'store'],
      run: async (ctx, [optionId, store]) => {
        const opt = await selectOption(ctx, optionId, store);
        try {
          await requireReadableProduct(ctx, opt.productId);
        } catch (err) {
          failed(productCustomOptionValue, err, 'option_not_exists', VALUE_MISSING);
        }
        return ((await valuesOf(ctx, [opt.id])).get(opt.id) ?? []).map(valueRecord);
      },
    },
    info: {
      title: 'Retrieve option value info',
      permission: ['products', 'read'],
      params: ['valueId', 'store'],
      run: async (ctx, [valueId, store]) => {
        const { value: v, productId } = await valueById(ctx, valueId);
        storeArg(ctx, store, productCustomOptionValue);
        try {
          await requireReadableProduct(ctx, productId);
        } catch (err) {
          failed(productCustomOptionValue, err, 'value_not_exists', { PRODUCT_NOT_FOUND: 'value_not_exists' });
        }
        // one title and price for every store view: no store view has values of its own
        return rec([
          ['option_id', v.optionId],
          ['sku', v.sku],
          ['sort_order', v.sortOrder],
          ['default_title', v.title],
          ['store_title', null],
          ['title', v.title],
          ['default_price', money(v.price)],
          ['default_price_type', v.priceType],
          ['store_price', null],
          ['store_price_type', null],
          ['price', money(v.price)],
          ['price_type', v.priceType],
          ['value_id', v.id],
        ]);
      },
    },
    add: {
      title: 'Add new values into custom option',
      permission: ['products', 'write'],
      params: ['optionId', 'data', 'store'],
      run: async (ctx, [optionId, data, store]) => {
        const opt = await selectOption(ctx, optionId, store);
        if (!Array.isArray(data) || !data.length || data.some((r) => !isRecord(r))) {
          throw valueFault('add_option_value_error', 'Values must be a list of structs (title, price, price_type, sku, sort_order).');
        }
        return rewriteValues(ctx, opt, 'add_option_value_error', (values, bad) => [
          ...values,
          ...(data as SoapRecord[]).map((r) => valueInput(r, bad)),
        ]);
      },
    },
    update: {
      title: 'Update value of custom option',
      permission: ['products', 'write'],
      params: ['valueId', 'data', 'store'],
      run: async (ctx, [valueId, data, store]) => {
        const found = await valueById(ctx, valueId);
        const opt = await selectOption(ctx, found.value.optionId, store);
        if (!isRecord(data)) throw valueFault('update_option_value_error', 'Value data must be a struct.');
        const title = data.get('title');
        if ((typeof title !== 'string' && typeof title !== 'number') || !stripTags(String(title)).trim()) {
          throw valueFault('option_value_title_required');
        }
        return rewriteValues(ctx, opt, 'update_option_value_error', (values, bad) => {
          const at = values.findIndex((v) => v.id === found.value.id);
          if (at < 0) throw valueFault('value_not_exists');
          values[at] = valueInput(data, bad, values[at]);
          return values;
        });
      },
    },
    remove: {
      title: 'Remove value from custom option',
      permission: ['products', 'write'],
      params: ['valueId'],
      run: async (ctx, [valueId]) => {
        const found = await valueById(ctx, valueId);
        const opt = await optionById(ctx, found.value.optionId, productCustomOptionValue);
        return rewriteValues(ctx, opt, 'can_not_delete', (values) => {
          if (!values.some((v) => v.id === found.value.id)) throw valueFault('value_not_exists');
          if (values.length <= 1) throw valueFault('cant_delete_last_value');
          return values.filter((v) => v.id !== found.value.id);
        });
      },
    },
  },
});
