/**
 * What a shopper asks to add, turned into cart lines: the product found by SKU or id, the choices its type
 * needs checked against the catalog (configurable attributes, bundle selections, custom option values and
 * files, downloadable links, grouped children), and the buy request kept on the line. Nothing here writes to
 * the cart, nor stores an uploaded file: files are checked and given their keys here, and the service writes
 * them with the line once the whole line is accepted (stock included).
 */
import { badRequest } from '../../platform/errors.js';
import type { Ctx } from '../../platform/context.js';
import { dec, type Decimal } from '../../platform/money.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareConfig } from '../../platform/settings.js';
import { configurableParentsOf, productIdBySku, productsForSale, type SaleProduct } from '../catalog/sale.js';
import { checkCustomOptionFile, type CheckedOptionFile } from '../catalog/product-extras/custom-options-service.js';
import type { AddItemBodyT } from './schemas.js';
import type { BuyRequest } from './tables.js';

declareConfig({
  'api/rate_limit/cart_option_upload': {
    type: 'integer',
    default: 20,
    label: 'Cart File Option Uploads',
    comment: 'files a shopper may upload for file options, per IP, per hour; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
});

export interface NewLine {
  productId: number;
  childProductId: number | null;
  qty: number;
  buyRequest: BuyRequest;
  /** files uploaded for the line's file options, checked but not stored yet */
  files?: CheckedOptionFile[];
}

const SELECT_TYPES = new Set(['drop_down', 'radio', 'checkbox', 'multiple']);
const MULTI_TYPES = new Set(['checkbox', 'multiple']);

function invalidItem(message: string, field?: string): never {
  throw badRequest(message, { reason: 'INVALID_CART_ITEM', details: field ? { field } : undefined });
}

/** The most one cart line holds. */
export const MAX_LINE_QTY = 10000;

/** A cart quantity: a whole number from 1 to 10,000. */
export function cartQty(v: number | undefined, fallback = 1): number {
  const qty = v ?? fallback;
  if (!Number.isInteger(qty) || qty < 1 || qty > MAX_LINE_QTY) invalidItem(`qty must be a whole number from 1 to ${MAX_LINE_QTY}`, 'qty');
  return qty;
}

function ids(v: unknown): number[] {
  const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
  return list.map((x) => Number(typeof x === 'string' ? x.trim() : x)).filter((n) => Number.isInteger(n) && n > 0);
}

export function sellableOrFail(p: SaleProduct | undefined, label: string): SaleProduct {
  if (!p) invalidItem(`Product with SKU '${label}' not found`, 'sku');
  if (!p.sellable) invalidItem(`Product '${p.sku}' is not available`, 'sku');
  return p;
}

/**
 * Each file uploaded counts against the caller's IP (api/rate_limit/cart_option_upload), refused ones too:
 * checking a file costs, and storing them fills the disk. The back office is not counted.
 */
async function countUpload(ctx: Ctx): Promise<void> {
  if (ctx.actor.kind === 'admin') return;
  await ctx.app.limiter.consume(configuredRule(ctx.app.settings, 'cart_option_upload', 3600, ctx.store.storeId), `ip:${ctx.ip}`);
}

/**
 * Custom option values: each must belong to the product and fit its option; required ones must be there.
 * Uploaded files are checked and added to `checkedFiles`, to be stored once the line is accepted.
 */
async function customOptionValues(
  ctx: Ctx,
  p: SaleProduct,
  body: AddItemBodyT,
  checkedFiles: CheckedOptionFile[],
): Promise<BuyRequest['options']> {
  const given = { ...(body.options ?? {}) };
  const files = { ...(body.options_files ?? {}), ...(body.optionsFiles ?? {}) };
  const out: NonNullable<BuyRequest['options']> = {};
  const own = new Map(p.customOptions.map((o) => [String(o.id), o]));
  const superIds = new Set(p.superAttributes.map((a) => String(a.id)));
  for (const key of [...Object.keys(given), ...Object.keys(files)]) {
    if (!own.has(key) && !superIds.has(key)) invalidItem(`Product '${p.sku}' has no custom option ${key}`, `options.${key}`);
  }
  for (const o of p.customOptions) {
    const key = String(o.id);
    const field = `options.${key}`;
    if (o.type === 'file') {
      const f = files[key];
      if (f) {
        const data = f.base64 ?? f.data;
        const name = f.name ?? f.filename;
        if (!data || !name) invalidItem(`The file for option '${o.title}' needs a name and base64 data`, field);
        const base64 = data.replace(/^data:[^;,]*;base64,/, '');
        if (!/^[A-Za-z0-9+/=\s]*$/.test(base64)) invalidItem(`The file for option '${o.title}' is not valid base64`, field);
        await countUpload(ctx);
        const checked = await checkCustomOptionFile(ctx, o.id, {
          name,
          contentType: f.contentType ?? f.type ?? '',
          data: Buffer.from(base64, 'base64'),
        });
        checkedFiles.push(checked);
        out[key] = `file:${checked.key}:${name.split(/[/\\]/).pop()}`;
      } else if (o.required) invalidItem(`Option '${o.title}' is required`, field);
      continue;
    }
    const raw = given[key];
    const empty = raw === undefined || raw === '' || (Array.isArray(raw) && raw.length === 0);
    if (empty) {
      if (o.required) invalidItem(`Option '${o.title}' is required`, field);
      continue;
    }
    if (SELECT_TYPES.has(o.type)) {
      const chosen = [...new Set(ids(raw))];
      if (!chosen.length) invalidItem(`Option '${o.title}' needs the id of one of its values`, field);
      if (!MULTI_TYPES.has(o.type) && chosen.length > 1) invalidItem(`Option '${o.title}' takes one value`, field);
      for (const id of chosen) {
        if (!o.values.some((v) => v.id === id)) invalidItem(`Option '${o.title}' has no value ${id}`, field);
      }
      out[key] = MULTI_TYPES.has(o.type) ? chosen.sort((a, b) => a - b) : chosen[0];
      continue;
    }
    if (typeof raw !== 'string' && typeof raw !== 'number') invalidItem(`Option '${o.title}' takes text`, field);
    const text = String(raw).trim();
    if (o.type === 'field' || o.type === 'area') {
      if (o.maxCharacters && text.length > o.maxCharacters)
        invalidItem(`Option '${o.title}' takes at most ${o.maxCharacters} characters`, field);
    } else if (o.type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(text)) {
      invalidItem(`Option '${o.title}' takes a date (YYYY-MM-DD)`, field);
    } else if (o.type === 'date_time' && !/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/.test(text)) {
      invalidItem(`Option '${o.title}' takes a date and time (YYYY-MM-DD HH:MM)`, field);
    } else if (o.type === 'time' && !/^\d{2}:\d{2}(:\d{2})?$/.test(text)) {
      invalidItem(`Option '${o.title}' takes a time (HH:MM)`, field);
    }
    if (
      (o.type === 'date' || o.type === 'date_time') &&
      Number.isNaN(Date.parse(text.replace(' ', 'T') + (text.length === 10 ? 'T00:00:00Z' : 'Z')))
    ) {
      invalidItem(`Option '${o.title}' is not a real date`, field);
    }
    out[key] = text;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The configurable's child matching the chosen attribute values; every super attribute must be chosen. */
function configurableChild(
  parent: SaleProduct,
  all: Map<number, SaleProduct>,
  body: AddItemBodyT,
): { child: SaleProduct; chosen: Record<string, number> } {
  const given: Record<string, unknown> = { ...(body.super_attribute ?? {}), ...(body.superAttribute ?? {}) };
  for (const a of parent.superAttributes) {
    const fromOptions = body.options?.[String(a.id)];
    if (given[String(a.id)] === undefined && fromOptions !== undefined) given[String(a.id)] = fromOptions;
  }
  const chosen: Record<string, number> = {};
  for (const a of parent.superAttributes) {
    const v = Number(given[String(a.id)]);
    if (!Number.isInteger(v) || v < 1) invalidItem(`Please choose ${a.label} for '${parent.sku}'`, `superAttribute.${a.id}`);
    if (!a.options.has(v)) invalidItem(`${a.label} has no option ${v}`, `superAttribute.${a.id}`);
    chosen[String(a.id)] = v;
  }
  for (const key of Object.keys(given)) {
    if (!parent.superAttributes.some((a) => String(a.id) === key) && !parent.customOptions.some((o) => String(o.id) === key)) {
      invalidItem(`'${parent.sku}' has no configurable attribute ${key}`, `superAttribute.${key}`);
    }
  }
  const match = parent.childIds
    .map((id) => all.get(id))
    .find((c) => c && parent.superAttributes.every((a) => Number(c.attributes[a.code]) === chosen[String(a.id)]));
  if (!match) invalidItem(`'${parent.sku}' is not available in the chosen combination`, 'superAttribute');
  if (!match.sellable) invalidItem(`'${parent.sku}' is not available in the chosen combination`, 'superAttribute');
  return { child: match, chosen };
}

/** Bundle selections: one per select/radio option, any number per checkbox/multi option; required options filled. */
function bundleChoice(
  p: SaleProduct,
  all: Map<number, SaleProduct>,
  body: AddItemBodyT,
): Pick<BuyRequest, 'bundleOption' | 'bundleOptionQty'> {
  const given: Record<string, unknown> = { ...(body.bundle_option ?? {}), ...(body.bundleOption ?? {}) };
  const qtys: Record<string, number> = { ...(body.bundle_option_qty ?? {}), ...(body.bundleOptionQty ?? {}) };
  for (const key of [...Object.keys(given), ...Object.keys(qtys)]) {
    if (!p.bundleOptions.some((o) => String(o.id) === key)) invalidItem(`Bundle '${p.sku}' has no option ${key}`, `bundleOption.${key}`);
  }
  const bundleOption: Record<string, number[]> = {};
  const bundleOptionQty: Record<string, number> = {};
  for (const o of p.bundleOptions) {
    const key = String(o.id);
    const field = `bundleOption.${key}`;
    let chosen = given[key] === undefined ? [] : [...new Set(ids(given[key]))];
    if (given[key] === undefined) chosen = o.selections.filter((s) => s.isDefault).map((s) => s.id);
    if (!chosen.length) {
      if (o.required) invalidItem(`Please choose '${o.title}' for '${p.sku}'`, field);
      continue;
    }
    if ((o.type === 'select' || o.type === 'radio') && chosen.length > 1) invalidItem(`'${o.title}' takes one selection`, field);
    for (const id of chosen) {
      const sel = o.selections.find((s) => s.id === id);
      if (!sel) invalidItem(`'${o.title}' has no selection ${id}`, field);
      const child = all.get(sel.productId);
      if (!child || !child.sellable) invalidItem(`The selection '${child?.name ?? id}' of '${o.title}' is not available`, field);
    }
    bundleOption[key] = chosen.sort((a, b) => a - b);
    if (qtys[key] !== undefined) {
      const q = qtys[key];
      if (!Number.isInteger(q) || q < 1 || q > 10000)
        invalidItem(`The qty of '${o.title}' must be a whole number from 1 to 10000`, `bundleOptionQty.${key}`);
      const sel = o.selections.find((s) => s.id === chosen[0])!;
      if (chosen.length !== 1 || !sel.canChangeQty) invalidItem(`The qty of '${o.title}' cannot be changed`, `bundleOptionQty.${key}`);
      bundleOptionQty[key] = q;
    }
  }
  return { bundleOption, bundleOptionQty: Object.keys(bundleOptionQty).length ? bundleOptionQty : undefined };
}

function downloadableLinks(p: SaleProduct, body: AddItemBodyT): number[] | undefined {
  const chosen = [...new Set(body.links ?? [])].sort((a, b) => a - b);
  for (const id of chosen) if (!p.links.some((l) => l.id === id)) invalidItem(`'${p.sku}' has no link ${id}`, 'links');
  if (p.links.length && p.linksPurchasedSeparately && !chosen.length) invalidItem(`Please choose the links of '${p.sku}' to buy`, 'links');
  if (!p.linksPurchasedSeparately) return p.links.map((l) => l.id);
  return chosen.length ? chosen : undefined;
}

/** The lines to add for one request (a grouped product gives one line per chosen child). */
export async function resolveAddRequest(ctx: Ctx, body: AddItemBodyT, version?: bigint): Promise<NewLine[]> {
  if (body.sku === undefined && body.productId === undefined) invalidItem('sku is required', 'sku');
  const label = body.sku ?? String(body.productId);
  let id = body.productId ?? (await productIdBySku(ctx, body.sku!, version));
  if (id === undefined) invalidItem(`Product with SKU '${label}' not found`, 'sku');
  const qty = cartQty(body.qty);
  const files: CheckedOptionFile[] = [];
  const withFiles = (l: NewLine): NewLine => (files.length ? { ...l, files } : l);
  let products = await productsForSale(ctx, [id], version);
  let p = sellableOrFail(products.get(id), label);
  let chosenChild: SaleProduct | undefined;
  // a configurable's child SKU adds the parent with the child's attribute values
  if ((p.type === 'simple' || p.type === 'virtual') && p.visibility === 'not_visible') {
    const parents = await configurableParentsOf(ctx, p.id);
    if (!parents.length) invalidItem(`Product '${p.sku}' is not sold on its own`, 'sku');
    const withParents = await productsForSale(ctx, parents, version);
    const parent = parents.map((pid) => withParents.get(pid)).find((x) => x?.sellable);
    if (!parent) invalidItem(`Product '${p.sku}' is not available`, 'sku');
    chosenChild = p;
    products = withParents;
    p = parent;
    id = parent.id;
  }
  switch (p.type) {
    case 'simple':
    case 'virtual':
      return [
        withFiles({
          productId: p.id,
          childProductId: null,
          qty,
          buyRequest: clean({ options: await customOptionValues(ctx, p, body, files) }),
        }),
      ];
    case 'downloadable':
      return [
        withFiles({
          productId: p.id,
          childProductId: null,
          qty,
          buyRequest: clean({ options: await customOptionValues(ctx, p, body, files), links: downloadableLinks(p, body) }),
        }),
      ];
    case 'configurable': {
      let child: SaleProduct;
      let superAttribute: Record<string, number>;
      if (chosenChild) {
        child = chosenChild;
        superAttribute = {};
        for (const a of p.superAttributes) superAttribute[String(a.id)] = Number(child.attributes[a.code]);
      } else ({ child, chosen: superAttribute } = configurableChild(p, products, body));
      return [
        withFiles({
          productId: p.id,
          childProductId: child.id,
          qty,
          buyRequest: clean({ superAttribute, options: await customOptionValues(ctx, p, body, files) }),
        }),
      ];
    }
    case 'bundle':
      return [
        withFiles({
          productId: p.id,
          childProductId: null,
          qty,
          buyRequest: clean({ ...bundleChoice(p, products, body), options: await customOptionValues(ctx, p, body, files) }),
        }),
      ];
    case 'grouped': {
      const given: Record<string, number> = { ...(body.super_group ?? {}), ...(body.superGroup ?? {}) };
      for (const key of Object.keys(given)) {
        if (!p.groupedChildren.some((g) => String(g.productId) === key))
          invalidItem(`'${p.sku}' has no product ${key}`, `superGroup.${key}`);
      }
      const wanted = Object.keys(given).length
        ? p.groupedChildren.map((g) => ({ productId: g.productId, qty: given[String(g.productId)] ?? 0 }))
        : p.groupedChildren.map((g) => ({ productId: g.productId, qty: g.qty.toNumber() }));
      const lines: NewLine[] = [];
      for (const w of wanted) {
        if (!w.qty) continue;
        const child = products.get(w.productId);
        if (!child || !child.sellable)
          invalidItem(`'${child?.sku ?? w.productId}' of '${p.sku}' is not available`, `superGroup.${w.productId}`);
        const childQty = cartQty(w.qty * (body.qty ?? 1));
        lines.push({ productId: child.id, childProductId: null, qty: childQty, buyRequest: {} });
      }
      if (!lines.length) invalidItem(`Please specify the quantity of the products of '${p.sku}'`, 'superGroup');
      return lines;
    }
    default:
      return invalidItem(`Products of type ${p.type} cannot be added to a cart`, 'sku');
  }
}

function clean(b: BuyRequest): BuyRequest {
  const out: BuyRequest = {};
  for (const [k, v] of Object.entries(b) as [keyof BuyRequest, unknown][]) {
    if (v === undefined) continue;
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && !Object.keys(v).length) continue;
    (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** A buy request as text with its keys sorted: equal for requests that ask for the same thing. */
export function canonicalRequest(b: BuyRequest): string {
  return canonical(b);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${k}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** What a simple product or a configurable's child takes per unit of its line (stockLinesOf skips the multiplication). */
export const ONE_PER_UNIT = dec(1);

/** The products a line takes from stock, with the qty of each per unit of the line. */
export function stockParts(
  line: { productId: number; childProductId: number | null; buyRequest: BuyRequest },
  products: Map<number, SaleProduct>,
): { productId: number; per: Decimal }[] {
  const p = products.get(line.productId);
  if (!p) return [];
  if (p.type === 'configurable') return line.childProductId ? [{ productId: line.childProductId, per: ONE_PER_UNIT }] : [];
  if (p.type === 'bundle') {
    const parts: { productId: number; per: Decimal }[] = [];
    for (const o of p.bundleOptions) {
      for (const selId of line.buyRequest.bundleOption?.[String(o.id)] ?? []) {
        const sel = o.selections.find((s) => s.id === selId);
        if (!sel) continue;
        const q = line.buyRequest.bundleOptionQty?.[String(o.id)];
        parts.push({ productId: sel.productId, per: q !== undefined ? dec(q) : sel.qty });
      }
    }
    return parts;
  }
  return [{ productId: p.id, per: ONE_PER_UNIT }];
}
