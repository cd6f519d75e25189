/**
 * Which node of Magento's API ACL tree (`api.xml`'s `acl`) guards each method, so that a role imported from a
 * Magento shop keeps what it could call: the permissions of every method whose node the role allows, or a node
 * above it allows without a nearer node denying it, as Magento's ACL inherits them.
 */
import { LEGACY_RESOURCES } from './resources/index.js';

export const MAGENTO_ACL: Record<string, Record<string, string>> = {
  blog_post: {
    list: 'blog/post/list',
    info: 'blog/post/info',
    create: 'blog/post/create',
    update: 'blog/post/update',
    delete: 'blog/post/delete',
  },
  catalog_category: {
    currentStore: 'catalog/category',
    tree: 'catalog/category/tree',
    level: 'catalog/category',
    info: 'catalog/category/info',
    create: 'catalog/category/create',
    update: 'catalog/category/update',
    move: 'catalog/category/move',
    delete: 'catalog/category/delete',
    assignedProducts: 'catalog/category/product',
    assignProduct: 'catalog/category/product/assign',
    updateProduct: 'catalog/category/product/update',
    removeProduct: 'catalog/category/product/remove',
  },
  catalog_category_attribute: { currentStore: 'catalog/category', list: 'catalog/category', options: 'catalog/category' },
  catalog_product: {
    currentStore: 'catalog/product',
    list: 'catalog/product/info',
    info: 'catalog/product/info',
    create: 'catalog/product/create',
    update: 'catalog/product/update',
    multiUpdate: 'catalog/product/update',
    delete: 'catalog/product/delete',
    getSpecialPrice: 'catalog/product',
    setSpecialPrice: 'catalog/product/update',
    listOfAdditionalAttributes: 'catalog/product/listOfAdditionalAttributes',
  },
  catalog_product_attribute: {
    currentStore: 'catalog/product/attribute/write',
    list: 'catalog/product/attribute/read',
    options: 'catalog/product/attribute/read',
    types: 'catalog/product/attribute/types',
    create: 'catalog/product/attribute/create',
    update: 'catalog/product/attribute/update',
    remove: 'catalog/product/attribute/remove',
    info: 'catalog/product/attribute/info',
    addOption: 'catalog/product/attribute/option/add',
    removeOption: 'catalog/product/attribute/option/remove',
  },
  catalog_product_attribute_set: {
    create: 'catalog/product/attribute/set/create',
    remove: 'catalog/product/attribute/set/remove',
    list: 'catalog/product/attribute/set/list',
    attributeAdd: 'catalog/product/attribute/set/attribute_add',
    attributeRemove: 'catalog/product/attribute/set/attribute_remove',
    groupAdd: 'catalog/product/attribute/set/group_add',
    groupRename: 'catalog/product/attribute/set/group_rename',
    groupRemove: 'catalog/product/attribute/set/group_remove',
  },
  catalog_product_type: { list: 'catalog/product' },
  catalog_product_attribute_media: {
    currentStore: 'catalog/product/media',
    list: 'catalog/product/media',
    info: 'catalog/product/media',
    types: 'catalog/product/media',
    create: 'catalog/product/media/create',
    update: 'catalog/product/media/update',
    remove: 'catalog/product/media/remove',
  },
  catalog_product_attribute_tier_price: { info: 'catalog/product', update: 'catalog/product/update_tier_price' },
  catalog_product_link: {
    list: 'catalog/product/link',
    assign: 'catalog/product/link/assign',
    update: 'catalog/product/link/update',
    remove: 'catalog/product/link/remove',
    types: 'catalog/product/link',
    attributes: 'catalog/product/link',
  },
  catalog_product_custom_option: {
    add: 'catalog/product/option/add',
    update: 'catalog/product/option/update',
    types: 'catalog/product/option/types',
    info: 'catalog/product/option/info',
    list: 'catalog/product/option/list',
    remove: 'catalog/product/option/remove',
  },
  catalog_product_custom_option_value: {
    list: 'catalog/product/option/value/list',
    info: 'catalog/product/option/value/info',
    add: 'catalog/product/option/value/add',
    update: 'catalog/product/option/value/update',
    remove: 'catalog/product/option/value/remove',
  },
  cataloginventory_stock_item: { list: 'cataloginventory/info', update: 'cataloginventory/update', multiUpdate: 'cataloginventory/update' },
  cart: { create: 'cart/create', order: 'cart/order', info: 'cart/info', totals: 'cart/totals', license: 'cart/license' },
  cart_product: {
    add: 'cart/product/add',
    update: 'cart/product/update',
    remove: 'cart/product/remove',
    list: 'cart/product/list',
    moveToCustomerQuote: 'cart/product/moveToCustomerQuote',
  },
  cart_customer: { set: 'cart/customer/set', addresses: 'cart/customer/addresses' },
  cart_shipping: { method: 'cart/shipping/method', list: 'cart/shipping/list' },
  cart_payment: { method: 'cart/payment/method', list: 'cart/payment/list' },
  cart_coupon: { add: 'cart/coupon/add', remove: 'cart/coupon/remove' },
  core_store: { list: 'core/store/list', info: 'core/store/info' },
  customer: {
    list: 'customer/info',
    create: 'customer/create',
    info: 'customer/info',
    update: 'customer/update',
    delete: 'customer/delete',
  },
  customer_group: { list: 'customer' },
  customer_address: {
    list: 'customer/address/info',
    create: 'customer/address/create',
    info: 'customer/address/info',
    update: 'customer/address/update',
    delete: 'customer/address/delete',
  },
  directory_country: { list: 'directory/country' },
  directory_region: { list: 'directory/region' },
  giftmessage: { setForQuote: 'giftmessage/set', setForQuoteItem: 'giftmessage/set', setForQuoteProduct: 'giftmessage/set' },
  sales_order: {
    list: 'sales/order/info',
    info: 'sales/order/info',
    addComment: 'sales/order/change',
    hold: 'sales/order/change',
    unhold: 'sales/order/change',
    cancel: 'sales/order/change',
  },
  sales_order_shipment: {
    list: 'sales/order/shipment/info',
    info: 'sales/order/shipment/info',
    sendInfo: 'sales/order/shipment/send',
    create: 'sales/order/shipment/create',
    addComment: 'sales/order/shipment/comment',
    addTrack: 'sales/order/shipment/track',
    removeTrack: 'sales/order/shipment/track',
    getCarriers: 'sales/order/shipment',
  },
  sales_order_invoice: {
    list: 'sales/order/invoice/info',
    info: 'sales/order/invoice/info',
    create: 'sales/order/invoice/create',
    addComment: 'sales/order/invoice/comment',
    capture: 'sales/order/invoice/capture',
    void: 'sales/order/invoice/void',
    cancel: 'sales/order/invoice/cancel',
  },
  sales_order_creditmemo: {
    list: 'sales/order/creditmemo/list',
    info: 'sales/order/creditmemo/info',
    create: 'sales/order/creditmemo/create',
    addComment: 'sales/order/creditmemo/comment',
    cancel: 'sales/order/creditmemo/cancel',
  },
  catalog_product_tag: {
    list: 'catalog/product/tag/list',
    info: 'catalog/product/tag/info',
    add: 'catalog/product/tag/add',
    update: 'catalog/product/tag/update',
    remove: 'catalog/product/tag/remove',
  },
  core_magento: { info: 'core/magento/info' },
  catalog_product_downloadable_link: { add: 'downloadable/link/add', list: 'downloadable/link/list', remove: 'downloadable/link/remove' },
};

/** One rule of a Magento API role: an ACL node (`sales/order/info`, `all`) allowed or denied. */
export interface MagentoRule {
  resource: string;
  allow: boolean;
}

/** Whether the rules allow node `acl`: the nearest rule at or above it decides; none is a deny. */
export function aclAllows(rules: MagentoRule[], acl: string): boolean {
  let best: MagentoRule | undefined;
  for (const r of rules) {
    const applies = r.resource === 'all' || r.resource === acl || acl.startsWith(`${r.resource}/`);
    if (applies && (!best || best.resource === 'all' || r.resource.length > best.resource.length)) best = r;
  }
  return best?.allow ?? false;
}

/** The permissions of the methods of the method table a Magento role's rules allow. */
export function legacyPermissions(rules: MagentoRule[]): string[] {
  const out = new Set<string>();
  for (const r of LEGACY_RESOURCES) {
    for (const [name, m] of Object.entries(r.methods)) {
      const acl = MAGENTO_ACL[r.name]?.[name];
      if (m.permission && acl && aclAllows(rules, acl)) out.add(`${m.permission[0]}/${m.permission[1]}`);
    }
  }
  return [...out].sort();
}
