/**
 * Install data of the catalog's attributes: the system attributes (columns of the products table, written
 * through their own fields), the attributes a store needs from the start (color, size, material, ...) and
 * the attribute sets Default (every attribute), Clothing and Shoes. Safe to run again: what exists is kept.
 */
import { inArray } from 'drizzle-orm';
import type { Db } from '../../../platform/db.js';
import { attributeOptions, attributeSetAttributes, attributeSets, productAttributes } from '../tables.js';

type AttributeRow = typeof productAttributes.$inferInsert;

interface OptionSpec {
  label: string;
  swatch?: { type: 'color' | 'text'; value: string };
}

interface AttributeSpec extends Omit<AttributeRow, 'id' | 'frontendInput' | 'backendType'> {
  input: string;
  backend: string;
  /** the group of the attribute in every set that holds it */
  group: string;
  options?: (string | OptionSpec)[];
}

const BUNDLE = ['bundle'];
const DOWNLOADABLE = ['downloadable'];
/** types that have a price and weight of their own */
const PRICED = ['simple', 'virtual', 'configurable', 'bundle', 'downloadable'];

/** Columns of the products table. */
const system = (a: Omit<AttributeSpec, 'isSystem' | 'isUserDefined'>): AttributeSpec => ({ ...a, isSystem: true, isUserDefined: false });
/** Values kept in products.attributes, shipped with every store. */
const builtIn = (a: Omit<AttributeSpec, 'isUserDefined'>): AttributeSpec => ({ ...a, isUserDefined: false });
/** Values kept in products.attributes, a store's own catalog attributes. */
const userDefined = (a: Omit<AttributeSpec, 'isUserDefined'>): AttributeSpec => ({ ...a, isUserDefined: true });

// one attribute per line: a table to read down, not code
// prettier-ignore
export const INSTALL_ATTRIBUTES: AttributeSpec[] = [
  // ---- system: columns of the products table ----
  system({ code: 'name', label: 'Name', input: 'text', backend: 'varchar', scope: 'store', group: 'General', isRequired: true, isSearchable: true, isVisibleInAdvancedSearch: true, usedInProductListing: true, usedForSortBy: true, isComparable: false }),
  system({ code: 'sku', label: 'SKU', input: 'text', backend: 'static', scope: 'global', group: 'General', isRequired: true, isUnique: true, isSearchable: true, isVisibleInAdvancedSearch: true, isComparable: true, isUsedForPriceRules: true, usedInProductListing: true, frontendClass: 'validate-length maximum-length-64' }),
  system({ code: 'description', label: 'Description', input: 'textarea', backend: 'text', scope: 'store', group: 'General', isSearchable: true, isComparable: true, isVisibleInAdvancedSearch: true, isHtmlAllowedOnFront: true, isWysiwygEnabled: true }),
  system({ code: 'short_description', label: 'Short Description', input: 'textarea', backend: 'text', scope: 'store', group: 'General', isSearchable: true, isComparable: true, isVisibleInAdvancedSearch: true, isHtmlAllowedOnFront: true, isWysiwygEnabled: true, usedInProductListing: true }),
  system({ code: 'weight', label: 'Weight', input: 'weight', backend: 'decimal', scope: 'global', group: 'General', applyTo: ['simple', 'configurable', 'bundle'], frontendClass: 'validate-number' }),
  system({ code: 'news_from_date', label: 'Set Product as New from Date', input: 'date', backend: 'datetime', scope: 'website', group: 'General', usedInProductListing: true }),
  system({ code: 'news_to_date', label: 'Set Product as New to Date', input: 'date', backend: 'datetime', scope: 'website', group: 'General', usedInProductListing: true }),
  system({ code: 'status', label: 'Status', input: 'select', backend: 'int', scope: 'website', group: 'General', isRequired: true, usedInProductListing: true, defaultValue: 'enabled' }),
  system({ code: 'url_key', label: 'URL Key', input: 'text', backend: 'varchar', scope: 'store', group: 'General', usedInProductListing: true, frontendClass: 'validate-identifier' }),
  system({ code: 'visibility', label: 'Visibility', input: 'select', backend: 'int', scope: 'website', group: 'General', isRequired: true, defaultValue: 'catalog_search' }),
  system({ code: 'price', label: 'Price', input: 'price', backend: 'decimal', scope: 'website', group: 'Prices', applyTo: PRICED, isRequired: true, isSearchable: true, isFilterable: 1, isFilterableInSearch: true, isComparable: true, isVisibleInAdvancedSearch: true, isUsedForPriceRules: true, usedInProductListing: true, usedForSortBy: true, frontendClass: 'validate-number', position: 1 }),
  system({ code: 'special_price', label: 'Special Price', input: 'price', backend: 'decimal', scope: 'website', group: 'Prices', applyTo: PRICED, isUsedForPriceRules: true, usedInProductListing: true, frontendClass: 'validate-number', note: 'a lower price for the dates below' }),
  system({ code: 'special_from_date', label: 'Special Price From Date', input: 'date', backend: 'datetime', scope: 'website', group: 'Prices', applyTo: PRICED, usedInProductListing: true }),
  system({ code: 'special_to_date', label: 'Special Price To Date', input: 'date', backend: 'datetime', scope: 'website', group: 'Prices', applyTo: PRICED, usedInProductListing: true }),
  system({ code: 'cost', label: 'Cost', input: 'price', backend: 'decimal', scope: 'website', group: 'Prices', applyTo: ['simple', 'virtual', 'downloadable', 'configurable'], isUsedForPriceRules: true, frontendClass: 'validate-number' }),
  system({ code: 'tier_price', label: 'Tier Price', input: 'text', backend: 'decimal', scope: 'website', group: 'Prices', applyTo: PRICED }),
  system({ code: 'msrp', label: 'Manufacturer\'s Suggested Retail Price', input: 'price', backend: 'decimal', scope: 'website', group: 'Prices', applyTo: ['simple', 'virtual', 'downloadable', 'configurable', 'bundle'], usedInProductListing: true, frontendClass: 'validate-number' }),
  system({ code: 'tax_class_id', label: 'Tax Class', input: 'select', backend: 'int', scope: 'website', group: 'Prices', applyTo: PRICED, isRequired: true, isUsedForPriceRules: true, usedInProductListing: true, defaultValue: '2' }),
  system({ code: 'minimal_price', label: 'Minimal Price', input: 'price', backend: 'decimal', scope: 'global', group: 'Prices', note: 'read-only: the lowest price a shopper can pay' }),
  system({ code: 'meta_title', label: 'Meta Title', input: 'text', backend: 'varchar', scope: 'store', group: 'Meta Information' }),
  system({ code: 'meta_keywords', label: 'Meta Keywords', input: 'textarea', backend: 'text', scope: 'store', group: 'Meta Information' }),
  system({ code: 'meta_description', label: 'Meta Description', input: 'textarea', backend: 'varchar', scope: 'store', group: 'Meta Information', note: 'Maximum 255 chars', frontendClass: 'validate-length maximum-length-255' }),
  system({ code: 'image', label: 'Base Image', input: 'media_image', backend: 'varchar', scope: 'store', group: 'Images', usedInProductListing: true }),
  system({ code: 'small_image', label: 'Small Image', input: 'media_image', backend: 'varchar', scope: 'store', group: 'Images', usedInProductListing: true }),
  system({ code: 'thumbnail', label: 'Thumbnail', input: 'media_image', backend: 'varchar', scope: 'store', group: 'Images', usedInProductListing: true }),
  system({ code: 'media_gallery', label: 'Media Gallery', input: 'gallery', backend: 'static', scope: 'global', group: 'Images' }),
  system({ code: 'has_options', label: 'Has Options', input: 'boolean', backend: 'static', scope: 'global', group: 'General', note: 'read-only' }),
  system({ code: 'required_options', label: 'Required Options', input: 'boolean', backend: 'static', scope: 'global', group: 'General', note: 'read-only' }),
  system({ code: 'sku_type', label: 'Dynamic SKU', input: 'select', backend: 'int', scope: 'global', group: 'General', applyTo: BUNDLE, isRequired: true }),
  system({ code: 'weight_type', label: 'Dynamic Weight', input: 'select', backend: 'int', scope: 'global', group: 'General', applyTo: BUNDLE, isRequired: true }),
  system({ code: 'price_type', label: 'Dynamic Price', input: 'select', backend: 'int', scope: 'global', group: 'Prices', applyTo: BUNDLE, isRequired: true, isUsedForPriceRules: true, usedInProductListing: true }),
  system({ code: 'price_view', label: 'Price View', input: 'select', backend: 'int', scope: 'global', group: 'Prices', applyTo: BUNDLE, isRequired: true, usedInProductListing: true }),
  system({ code: 'shipment_type', label: 'Shipment', input: 'select', backend: 'int', scope: 'global', group: 'General', applyTo: BUNDLE, isRequired: true, usedInProductListing: true }),
  system({ code: 'links_title', label: 'Links Title', input: 'text', backend: 'varchar', scope: 'store', group: 'Downloadable Information', applyTo: DOWNLOADABLE }),
  system({ code: 'links_purchased_separately', label: 'Links can be purchased separately', input: 'boolean', backend: 'int', scope: 'global', group: 'Downloadable Information', applyTo: DOWNLOADABLE, usedInProductListing: true }),
  system({ code: 'samples_title', label: 'Samples Title', input: 'text', backend: 'varchar', scope: 'store', group: 'Downloadable Information', applyTo: DOWNLOADABLE }),

  // ---- built in: kept in products.attributes ----
  builtIn({ code: 'country_of_manufacture', label: 'Country of Manufacture', input: 'select', backend: 'varchar', scope: 'website', group: 'General', isComparable: true, isVisibleOnFront: true, options: ['CN', 'DE', 'FR', 'GB', 'IN', 'IT', 'JP', 'PT', 'TR', 'US', 'VN'] }),
  builtIn({ code: 'image_label', label: 'Base Image Label', input: 'text', backend: 'varchar', scope: 'store', group: 'Images', usedInProductListing: true }),
  builtIn({ code: 'small_image_label', label: 'Small Image Label', input: 'text', backend: 'varchar', scope: 'store', group: 'Images', usedInProductListing: true }),
  builtIn({ code: 'thumbnail_label', label: 'Thumbnail Label', input: 'text', backend: 'varchar', scope: 'store', group: 'Images', usedInProductListing: true }),
  builtIn({ code: 'msrp_enabled', label: 'Apply MAP', input: 'select', backend: 'int', scope: 'website', group: 'Prices', applyTo: ['simple', 'virtual', 'downloadable', 'configurable', 'bundle'], usedInProductListing: true, defaultValue: '2' }),
  builtIn({ code: 'msrp_display_actual_price_type', label: 'Display Actual Price', input: 'select', backend: 'int', scope: 'website', group: 'Prices', applyTo: ['simple', 'virtual', 'downloadable', 'configurable', 'bundle'], usedInProductListing: true, defaultValue: '4' }),
  builtIn({ code: 'meta_robots', label: 'Meta Robots', input: 'select', backend: 'varchar', scope: 'store', group: 'Meta Information' }),
  builtIn({ code: 'custom_design', label: 'Custom Design', input: 'text', backend: 'varchar', scope: 'store', group: 'Design' }),
  builtIn({ code: 'custom_design_from', label: 'Active From', input: 'date', backend: 'datetime', scope: 'store', group: 'Design' }),
  builtIn({ code: 'custom_design_to', label: 'Active To', input: 'date', backend: 'datetime', scope: 'store', group: 'Design' }),
  builtIn({ code: 'custom_layout_update', label: 'Custom Layout Update', input: 'textarea', backend: 'text', scope: 'store', group: 'Design' }),
  builtIn({ code: 'page_layout', label: 'Page Layout', input: 'select', backend: 'varchar', scope: 'store', group: 'Design' }),
  builtIn({ code: 'options_container', label: 'Display Product Options In', input: 'select', backend: 'varchar', scope: 'store', group: 'Design', defaultValue: 'container1' }),
  builtIn({ code: 'gift_message_available', label: 'Allow Gift Message', input: 'boolean', backend: 'int', scope: 'store', group: 'Gift Options' }),

  // ---- a store's catalog attributes ----
  userDefined({ code: 'barcode', label: 'Barcode', input: 'text', backend: 'varchar', scope: 'global', group: 'General', isSearchable: true, isComparable: true, frontendClass: 'validate-length maximum-length-64' }),
  userDefined({ code: 'gtin', label: 'GTIN', input: 'text', backend: 'varchar', scope: 'global', group: 'General', isSearchable: true, frontendClass: 'validate-digits', note: 'Global Trade Item Number (EAN/UPC)' }),
  userDefined({ code: 'mpn', label: 'Manufacturer Part Number', input: 'text', backend: 'varchar', scope: 'global', group: 'General', isSearchable: true }),
  userDefined({
    code: 'color',
    label: 'Color',
    input: 'select',
    backend: 'int',
    scope: 'global',
    group: 'Attributes',
    applyTo: ['simple', 'virtual', 'configurable'],
    isConfigurable: true,
    isFilterable: 1,
    isFilterableInSearch: true,
    isSearchable: true,
    isComparable: true,
    isVisibleOnFront: true,
    isVisibleInAdvancedSearch: true,
    usedInProductListing: true,
    position: 2,
    options: [
      { label: 'Black', swatch: { type: 'color', value: '#000000' } },
      { label: 'White', swatch: { type: 'color', value: '#ffffff' } },
      { label: 'Red', swatch: { type: 'color', value: '#ff0000' } },
      { label: 'Blue', swatch: { type: 'color', value: '#0000ff' } },
      { label: 'Green', swatch: { type: 'color', value: '#008000' } },
      { label: 'Grey', swatch: { type: 'color', value: '#808080' } },
      { label: 'Beige', swatch: { type: 'color', value: '#f5f5dc' } },
    ],
  }),
  userDefined({
    code: 'size',
    label: 'Size',
    input: 'select',
    backend: 'int',
    scope: 'global',
    group: 'Attributes',
    applyTo: ['simple', 'virtual', 'configurable'],
    isConfigurable: true,
    isFilterable: 1,
    isFilterableInSearch: true,
    isComparable: true,
    isVisibleOnFront: true,
    isVisibleInAdvancedSearch: true,
    usedInProductListing: true,
    position: 3,
    options: ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
  }),
  userDefined({
    code: 'material',
    label: 'Material',
    input: 'multiselect',
    backend: 'varchar',
    scope: 'global',
    group: 'Attributes',
    isFilterable: 1,
    isFilterableInSearch: true,
    isSearchable: true,
    isComparable: true,
    isVisibleOnFront: true,
    isVisibleInAdvancedSearch: true,
    position: 4,
    options: ['Cotton', 'Wool', 'Leather', 'Linen', 'Polyester', 'Silk'],
  }),
  userDefined({
    code: 'manufacturer',
    label: 'Manufacturer',
    input: 'select',
    backend: 'int',
    scope: 'global',
    group: 'General',
    isFilterable: 1,
    isFilterableInSearch: true,
    isSearchable: true,
    isComparable: true,
    isVisibleOnFront: true,
    isVisibleInAdvancedSearch: true,
    usedInProductListing: true,
    position: 5,
    options: ['Maho', 'Northwind', 'Contoso', 'Fabrikam'],
  }),
  userDefined({
    code: 'gender',
    label: 'Gender',
    input: 'select',
    backend: 'int',
    scope: 'global',
    group: 'Attributes',
    isComparable: true,
    isVisibleOnFront: true,
    isVisibleInAdvancedSearch: true,
    position: 6,
    options: ['Women', 'Men', 'Unisex', 'Kids'],
  }),
];

/** Group order within a set. */
const GROUPS = ['General', 'Prices', 'Meta Information', 'Images', 'Design', 'Attributes', 'Gift Options', 'Downloadable Information'];

/** Attributes of the Clothing and Shoes sets beyond the system ones, by group. */
const APPAREL = new Set([
  'country_of_manufacture',
  'image_label',
  'small_image_label',
  'thumbnail_label',
  'msrp_enabled',
  'msrp_display_actual_price_type',
  'meta_robots',
  'custom_design',
  'custom_design_from',
  'custom_design_to',
  'custom_layout_update',
  'page_layout',
  'options_container',
  'gift_message_available',
  'barcode',
  'gtin',
  'mpn',
  'manufacturer',
  'color',
  'size',
  'material',
  'gender',
]);

export const INSTALL_SETS: { name: string; sortOrder: number; includes: (a: AttributeSpec) => boolean; rename?: Record<string, string> }[] =
  [
    { name: 'Default', sortOrder: 1, includes: () => true },
    {
      name: 'Clothing',
      sortOrder: 2,
      includes: (a) => (a.isSystem === true && !a.applyTo?.every((t) => t === 'bundle' || t === 'downloadable')) || APPAREL.has(a.code),
      rename: { Attributes: 'Clothing' },
    },
    {
      name: 'Shoes',
      sortOrder: 3,
      includes: (a) => (a.isSystem === true && !a.applyTo?.every((t) => t === 'bundle' || t === 'downloadable')) || APPAREL.has(a.code),
      rename: { Attributes: 'Shoes' },
    },
  ];

export async function installAttributes(db: Db): Promise<void> {
  const rows: AttributeRow[] = INSTALL_ATTRIBUTES.map(({ input, backend, group: _group, options: _options, ...a }) => ({
    ...a,
    frontendInput: input,
    backendType: backend,
  }));
  const inserted = await db
    .insert(productAttributes)
    .values(rows)
    .onConflictDoNothing({ target: productAttributes.code })
    .returning({ id: productAttributes.id, code: productAttributes.code });
  const newIds = new Map(inserted.map((r) => [r.code, r.id]));

  const options: (typeof attributeOptions.$inferInsert)[] = [];
  for (const spec of INSTALL_ATTRIBUTES) {
    const attributeId = newIds.get(spec.code);
    if (attributeId === undefined || !spec.options) continue;
    spec.options.forEach((o, i) => {
      const opt = typeof o === 'string' ? { label: o } : o;
      options.push({ attributeId, label: opt.label, sortOrder: i + 1, swatchType: opt.swatch?.type, swatchValue: opt.swatch?.value });
    });
  }
  if (options.length) await db.insert(attributeOptions).values(options);

  await db
    .insert(attributeSets)
    .values(INSTALL_SETS.map((s) => ({ name: s.name, sortOrder: s.sortOrder })))
    .onConflictDoNothing({ target: attributeSets.name });
  const sets = await db
    .select({ id: attributeSets.id, name: attributeSets.name })
    .from(attributeSets)
    .where(
      inArray(
        attributeSets.name,
        INSTALL_SETS.map((s) => s.name),
      ),
    );
  const attrs = await db
    .select({ id: productAttributes.id, code: productAttributes.code })
    .from(productAttributes)
    .where(
      inArray(
        productAttributes.code,
        INSTALL_ATTRIBUTES.map((a) => a.code),
      ),
    );
  const attrIds = new Map(attrs.map((a) => [a.code, a.id]));

  const members: (typeof attributeSetAttributes.$inferInsert)[] = [];
  for (const set of INSTALL_SETS) {
    const setId = sets.find((s) => s.name === set.name)!.id;
    const perGroup = new Map<string, number>();
    for (const spec of INSTALL_ATTRIBUTES) {
      if (!set.includes(spec)) continue;
      const n = (perGroup.get(spec.group) ?? 0) + 1;
      perGroup.set(spec.group, n);
      members.push({
        setId,
        attributeId: attrIds.get(spec.code)!,
        groupName: set.rename?.[spec.group] ?? spec.group,
        groupSortOrder: GROUPS.indexOf(spec.group) + 1,
        sortOrder: n * 10,
      });
    }
  }
  await db.insert(attributeSetAttributes).values(members).onConflictDoNothing();
}
