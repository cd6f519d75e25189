/**
 * The typed interface (SOAP V2 and its WS-I form) as Magento's documents declare it, read once from compact
 * tables (types-*.ts, operations-*.ts) into the types and operations the codec, the handlers and the WSDL
 * documents share.
 *
 * Notation. A type is either `[]item` (a list of `item`) or its fields in order, separated by white space, each
 * `name` (a string), `name:type`, and `!` at the end for a field the type requires. Types are the names of other
 * types or `string`, `int`, `double`, `boolean`, `anyType` (any value) and `Array` (any list). An operation is its
 * request parts after the `sessionId` every one takes first (`name:type`, `name?` for an optional WS-I child), `>`,
 * and its response: the part (`name:type`) for V2, the type of `result` for WS-I. A WS-I operation whose elements
 * are not named after it starts with `@stem`.
 */
import { BASE_TYPES } from './types-base.js';
import { CATALOG_TYPES } from './types-catalog.js';
import { SALES_TYPES } from './types-sales.js';
import { V2_OPERATIONS } from './operations-v2.js';
import { WSI_OPERATIONS, WSI_TYPE_OVERRIDES } from './operations-wsi.js';

export type TypeTable = Record<string, string>;

export const PRIMITIVES = new Set(['string', 'int', 'double', 'boolean', 'anyType', 'Array']);

export interface Field {
  name: string;
  type: string;
  required: boolean;
}

export type TypeDef = { kind: 'struct'; fields: Field[] } | { kind: 'list'; item: string };

export interface Part {
  name: string;
  type: string;
  optional: boolean;
}

export interface TypedOperation {
  /** the operation's name, e.g. `salesOrderList` */
  name: string;
  /** the untyped path it is served by, e.g. `order.list` (a resource alias and a method) */
  path: string;
  /** the parts after the session id, in order: the method's arguments by position */
  params: Part[];
  /** V2: the response part; WS-I: `result` */
  result: Part;
  /** WS-I: the request and response element names */
  request: string;
  response: string;
}

function field(token: string): Field {
  const required = token.endsWith('!');
  const [name, type = 'string'] = (required ? token.slice(0, -1) : token).split(':');
  return { name, type, required };
}

function typeDef(spec: string): TypeDef {
  if (spec.startsWith('[]')) return { kind: 'list', item: spec.slice(2) };
  return { kind: 'struct', fields: spec.split(/\s+/).filter(Boolean).map(field) };
}

function typeMap(...tables: TypeTable[]): Map<string, TypeDef> {
  const out = new Map<string, TypeDef>();
  for (const t of tables) for (const [name, spec] of Object.entries(t)) out.set(name, typeDef(spec));
  return out;
}

export const V2_TYPES = typeMap(BASE_TYPES, CATALOG_TYPES, SALES_TYPES);
export const WSI_TYPES = typeMap(BASE_TYPES, CATALOG_TYPES, SALES_TYPES, WSI_TYPE_OVERRIDES);

/** Each resource's operation prefix (`resources_function_prefix`), by the resource alias the untyped paths accept. */
const PREFIXES: Record<string, string> = {
  store: 'store',
  magento: 'magento',
  country: 'directoryCountry',
  region: 'directoryRegion',
  customer: 'customerCustomer',
  customer_group: 'customerGroup',
  customer_address: 'customerAddress',
  category: 'catalogCategory',
  category_attribute: 'catalogCategoryAttribute',
  product: 'catalogProduct',
  product_attribute: 'catalogProductAttribute',
  product_attribute_set: 'catalogProductAttributeSet',
  product_type: 'catalogProductType',
  product_tier_price: 'catalogProductAttributeTierPrice',
  product_attribute_media: 'catalogProductAttributeMedia',
  product_link: 'catalogProductLink',
  product_custom_option: 'catalogProductCustomOption',
  product_custom_option_value: 'catalogProductCustomOptionValue',
  product_stock: 'catalogInventoryStockItem',
  product_downloadable_link: 'catalogProductDownloadableLink',
  product_tag: 'catalogProductTag',
  order: 'salesOrder',
  order_invoice: 'salesOrderInvoice',
  order_shipment: 'salesOrderShipment',
  order_creditmemo: 'salesOrderCreditmemo',
  cart: 'shoppingCart',
  cart_product: 'shoppingCartProduct',
  cart_customer: 'shoppingCartCustomer',
  cart_shipping: 'shoppingCartShipping',
  cart_payment: 'shoppingCartPayment',
  cart_coupon: 'shoppingCartCoupon',
  giftmessage: 'giftMessage',
  blog_post: 'blogPost',
};

/** The path an operation name stands for: the longest prefix it starts with, then the method (`salesOrderInvoiceList` → `order_invoice.list`). */
function pathOf(op: string): string {
  let best: [string, string] | undefined;
  for (const [alias, prefix] of Object.entries(PREFIXES)) {
    const next = op.charAt(prefix.length);
    if (op.startsWith(prefix) && next >= 'A' && next <= 'Z' && (!best || prefix.length > best[1].length)) best = [alias, prefix];
  }
  if (!best) throw new Error(`no resource prefix for ${op}`);
  const rest = op.slice(best[1].length);
  return `${best[0]}.${rest.charAt(0).toLowerCase()}${rest.slice(1)}`;
}

function part(token: string): Part {
  const [head, type = 'string'] = token.split(':');
  const optional = head.endsWith('?');
  return { name: optional ? head.slice(0, -1) : head, type, optional };
}

function operation(name: string, spec: string, wsi: boolean): TypedOperation {
  const [input, output] = spec.split('>').map((s) => s.trim());
  let tokens = input.split(/\s+/).filter(Boolean);
  let stem = name;
  if (tokens[0]?.startsWith('@')) {
    stem = tokens[0].slice(1);
    tokens = tokens.slice(1);
  }
  const result = wsi ? { name: 'result', type: output, optional: false } : part(output);
  return { name, path: pathOf(name), params: tokens.map(part), result, request: `${stem}RequestParam`, response: `${stem}ResponseParam` };
}

const operations = (table: Record<string, string>, wsi: boolean) =>
  new Map(Object.entries(table).map(([name, spec]) => [name, operation(name, spec, wsi)]));

export const V2_OPS = operations(V2_OPERATIONS, false);
export const WSI_OPS = operations(WSI_OPERATIONS, true);
/** WS-I operations by their request element's name. */
export const WSI_BY_REQUEST = new Map([...WSI_OPS.values()].map((op) => [op.request, op]));

/** Every type `roots` use, directly or through their fields and items, in a stable order. */
export function typesUsed(types: Map<string, TypeDef>, roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (PRIMITIVES.has(name) || seen.has(name)) return;
    const def = types.get(name);
    if (!def) throw new Error(`unknown SOAP type ${name}`);
    seen.add(name);
    if (def.kind === 'list') visit(def.item);
    else def.fields.forEach((f) => visit(f.type));
  };
  roots.forEach(visit);
  return [...seen];
}
