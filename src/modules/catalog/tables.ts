/**
 * The catalog: product attributes and attribute sets, products of every type with their sub-resources,
 * and categories. Store-view values that may differ from the default (name, descriptions, url key, status,
 * meta) live in each entity's `store_values` JSON object keyed by store id: `{"2": {"name": "..."}}`, so a
 * read in any store view is one row with no join. Money is NUMERIC(20,4); dates without time are `date`.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const money = (name: string) => numeric(name, { precision: 20, scale: 4 });
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Per-store overrides: store id → field → value. */
export type StoreValues = Record<string, Record<string, unknown>>;

// ---- attributes ----

export const productAttributes = pgTable('product_attributes', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  label: text('label').notNull(),
  /** text, textarea, select, multiselect, boolean, date, price, weight, media_image, gallery */
  frontendInput: text('frontend_input').notNull(),
  /** varchar, text, int, decimal, datetime, static */
  backendType: text('backend_type').notNull(),
  /** global, website, store */
  scope: text('scope').notNull().default('global'),
  /** a column of the products table (sku, name, price, ...): written through its own field, never customAttributesWrite */
  isSystem: boolean('is_system').notNull().default(false),
  isRequired: boolean('is_required').notNull().default(false),
  isUserDefined: boolean('is_user_defined').notNull().default(true),
  isUnique: boolean('is_unique').notNull().default(false),
  isSearchable: boolean('is_searchable').notNull().default(false),
  /** 0 no, 1 filterable with results, 2 filterable without results */
  isFilterable: integer('is_filterable').notNull().default(0),
  isFilterableInSearch: boolean('is_filterable_in_search').notNull().default(false),
  isComparable: boolean('is_comparable').notNull().default(false),
  isVisibleOnFront: boolean('is_visible_on_front').notNull().default(false),
  isHtmlAllowedOnFront: boolean('is_html_allowed_on_front').notNull().default(false),
  isUsedForPriceRules: boolean('is_used_for_price_rules').notNull().default(false),
  usedInProductListing: boolean('used_in_product_listing').notNull().default(false),
  usedForSortBy: boolean('used_for_sort_by').notNull().default(false),
  isVisibleInAdvancedSearch: boolean('is_visible_in_advanced_search').notNull().default(false),
  isWysiwygEnabled: boolean('is_wysiwyg_enabled').notNull().default(false),
  /** may be a super attribute of configurable products (global select attributes only) */
  isConfigurable: boolean('is_configurable').notNull().default(false),
  defaultValue: text('default_value'),
  /** product types the attribute applies to; empty: all */
  applyTo: text('apply_to')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  frontendClass: text('frontend_class'),
  note: text('note'),
  position: integer('position').notNull().default(0),
});

export const attributeOptions = pgTable(
  'product_attribute_options',
  {
    id: serial('id').primaryKey(),
    attributeId: integer('attribute_id')
      .notNull()
      .references(() => productAttributes.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    /** per-store labels: store id → label */
    storeLabels: jsonb('store_labels').$type<Record<string, string>>().notNull().default({}),
    sortOrder: integer('sort_order').notNull().default(0),
    /** swatch: `color` (#rrggbb) or `text` */
    swatchType: text('swatch_type'),
    swatchValue: text('swatch_value'),
  },
  (t) => [index('product_attribute_options_attribute_idx').on(t.attributeId)],
);

export const attributeSets = pgTable('attribute_sets', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  sortOrder: integer('sort_order').notNull().default(0),
});

export const attributeSetAttributes = pgTable(
  'attribute_set_attributes',
  {
    setId: integer('set_id')
      .notNull()
      .references(() => attributeSets.id, { onDelete: 'cascade' }),
    attributeId: integer('attribute_id')
      .notNull()
      .references(() => productAttributes.id, { onDelete: 'cascade' }),
    groupName: text('group_name').notNull().default('General'),
    groupSortOrder: integer('group_sort_order').notNull().default(0),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.setId, t.attributeId] })],
);

/**
 * The groups of attribute sets by id, for the Magento 1 API, which names groups by id and keeps empty ones; a
 * member names its group by `group_name`. A group with members has a row once the legacy API has used the set.
 */
export const attributeGroups = pgTable(
  'attribute_groups',
  {
    id: serial('id').primaryKey(),
    setId: integer('set_id')
      .notNull()
      .references(() => attributeSets.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [uniqueIndex('attribute_groups_set_name_idx').on(t.setId, t.name)],
);

// ---- products ----

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    sku: text('sku').notNull(),
    /** simple, virtual, configurable, bundle, grouped, downloadable */
    type: text('type').notNull().default('simple'),
    attributeSetId: integer('attribute_set_id')
      .notNull()
      .references(() => attributeSets.id),
    /** 0 = none */
    taxClassId: integer('tax_class_id').notNull().default(0),
    /** default (admin) values; store views override some of them in store_values */
    name: text('name').notNull(),
    urlKey: text('url_key').notNull(),
    /** enabled (true) or disabled */
    isActive: boolean('is_active').notNull().default(true),
    /** not_visible, catalog, search, catalog_search */
    visibility: text('visibility').notNull().default('catalog_search'),
    description: text('description'),
    shortDescription: text('short_description'),
    metaTitle: text('meta_title'),
    metaDescription: text('meta_description'),
    metaKeywords: text('meta_keywords'),
    storeValues: jsonb('store_values').$type<StoreValues>().notNull().default({}),
    websiteIds: integer('website_ids')
      .array()
      .notNull()
      .default(sql`'{1}'::int[]`),
    price: money('price'),
    specialPrice: money('special_price'),
    specialFromDate: date('special_from_date', { mode: 'string' }),
    specialToDate: date('special_to_date', { mode: 'string' }),
    newsFromDate: date('news_from_date', { mode: 'string' }),
    newsToDate: date('news_to_date', { mode: 'string' }),
    cost: money('cost'),
    msrp: money('msrp'),
    weight: numeric('weight', { precision: 12, scale: 4 }),
    /**
     * Lowest and highest price a shopper can pay before options: the product's own final price for simple
     * types, the children's range for configurable, grouped and bundle products. Maintained on every write
     * that can change it; listings filter and sort on it.
     */
    minPrice: money('min_price'),
    maxPrice: money('max_price'),
    hasRequiredOptions: boolean('has_required_options').notNull().default(false),
    /** bundle: 0 dynamic, 1 fixed */
    skuType: integer('sku_type'),
    priceType: integer('price_type'),
    weightType: integer('weight_type'),
    /** bundle: 0 price range, 1 as low as */
    priceView: integer('price_view'),
    /** bundle: 0 together, 1 separately */
    shipmentType: integer('shipment_type'),
    /** downloadable */
    linksTitle: text('links_title'),
    linksPurchasedSeparately: boolean('links_purchased_separately'),
    samplesTitle: text('samples_title'),
    /** values of non-system attributes: code → value (select: option id; multiselect: option id array) */
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    /** sku, names, descriptions and searchable attribute labels of every store view, for full-text search */
    searchText: text('search_text').notNull().default(''),
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('simple', search_text)`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('products_sku_uq').on(sql`lower(${t.sku})`),
    index('products_search_idx').using('gin', t.searchVector),
    index('products_attributes_idx').using('gin', t.attributes),
    index('products_min_price_idx').on(t.minPrice),
    index('products_created_idx').on(t.createdAt),
    index('products_name_idx').on(t.name),
    index('products_url_key_idx').on(t.urlKey),
  ],
);

export const tierPrices = pgTable(
  'product_tier_prices',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** null: all groups */
    customerGroupId: integer('customer_group_id'),
    /** 0: all websites */
    websiteId: integer('website_id').notNull().default(0),
    qty: numeric('qty', { precision: 12, scale: 4 }).notNull(),
    price: money('price').notNull(),
    /** a group price (Maho's group_price): a price per customer group and website, kept as a tier of qty 1 */
    isGroupPrice: boolean('is_group_price').notNull().default(false),
  },
  (t) => [index('product_tier_prices_product_idx').on(t.productId)],
);

export const productMedia = pgTable(
  'product_media',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** path under media/catalog/product, e.g. /a/b/name.webp */
    file: text('file').notNull(),
    label: text('label'),
    position: integer('position').notNull().default(0),
    disabled: boolean('disabled').notNull().default(false),
    /** roles: image, small_image, thumbnail */
    types: text('types')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [index('product_media_product_idx').on(t.productId)],
);

export const customOptions = pgTable(
  'product_custom_options',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** field, area, file, drop_down, radio, checkbox, multiple, date, date_time, time */
    type: text('type').notNull(),
    required: boolean('required').notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
    /** for types without values */
    price: money('price'),
    /** fixed or percent */
    priceType: text('price_type').notNull().default('fixed'),
    sku: text('sku'),
    maxCharacters: integer('max_characters'),
    fileExtensions: text('file_extensions'),
    imageSizeX: integer('image_size_x'),
    imageSizeY: integer('image_size_y'),
  },
  (t) => [index('product_custom_options_product_idx').on(t.productId)],
);

export const customOptionValues = pgTable(
  'product_custom_option_values',
  {
    id: serial('id').primaryKey(),
    optionId: integer('option_id')
      .notNull()
      .references(() => customOptions.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    price: money('price').notNull().default('0'),
    priceType: text('price_type').notNull().default('fixed'),
    sku: text('sku'),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [index('product_custom_option_values_option_idx').on(t.optionId)],
);

/** Files customers upload for `file` custom options; downloaded by option id and secret key. */
export const customOptionFiles = pgTable('product_custom_option_files', {
  /** random, URL-safe; the download secret */
  key: text('key').primaryKey(),
  optionId: integer('option_id')
    .notNull()
    .references(() => customOptions.id, { onDelete: 'cascade' }),
  /** path under DATA_DIR/media/custom_options */
  path: text('path').notNull(),
  originalName: text('original_name').notNull(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const bundleOptions = pgTable(
  'product_bundle_options',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** select, radio, checkbox, multi */
    type: text('type').notNull(),
    required: boolean('required').notNull().default(true),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('product_bundle_options_product_idx').on(t.productId)],
);

export const bundleSelections = pgTable(
  'product_bundle_selections',
  {
    id: serial('id').primaryKey(),
    optionId: integer('option_id')
      .notNull()
      .references(() => bundleOptions.id, { onDelete: 'cascade' }),
    /** the child product (simple or virtual) */
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    qty: numeric('qty', { precision: 12, scale: 4 }).notNull().default('1'),
    canChangeQty: boolean('can_change_qty').notNull().default(false),
    isDefault: boolean('is_default').notNull().default(false),
    position: integer('position').notNull().default(0),
    /** fixed-price bundles: the selection's price */
    price: money('price'),
    /** fixed or percent */
    priceType: text('price_type').notNull().default('fixed'),
  },
  (t) => [index('product_bundle_selections_option_idx').on(t.optionId), index('product_bundle_selections_product_idx').on(t.productId)],
);

export const configurableAttributes = pgTable(
  'product_configurable_attributes',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    attributeId: integer('attribute_id')
      .notNull()
      .references(() => productAttributes.id),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.productId, t.attributeId] })],
);

export const configurableChildren = pgTable(
  'product_configurable_children',
  {
    parentId: integer('parent_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    childId: integer('child_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.parentId, t.childId] }), index('product_configurable_children_child_idx').on(t.childId)],
);

export const groupedChildren = pgTable(
  'product_grouped_children',
  {
    parentId: integer('parent_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    childId: integer('child_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** default qty offered */
    qty: numeric('qty', { precision: 12, scale: 4 }).notNull().default('0'),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.parentId, t.childId] }), index('product_grouped_children_child_idx').on(t.childId)],
);

/** related, cross_sell, up_sell */
export const productLinks = pgTable(
  'product_links',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    linkedProductId: integer('linked_product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.productId, t.type, t.linkedProductId] }), index('product_links_linked_idx').on(t.linkedProductId)],
);

export const downloadableLinks = pgTable(
  'product_downloadable_links',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    price: money('price').notNull().default('0'),
    sortOrder: integer('sort_order').notNull().default(0),
    /** 0: unlimited */
    numberOfDownloads: integer('number_of_downloads').notNull().default(0),
    /** 0 no, 1 yes, 2 use config */
    isShareable: integer('is_shareable').notNull().default(2),
    /** url or file */
    linkType: text('link_type').notNull(),
    linkUrl: text('link_url'),
    /** path under DATA_DIR/media/downloadable */
    linkFile: text('link_file'),
    sampleType: text('sample_type'),
    sampleUrl: text('sample_url'),
    sampleFile: text('sample_file'),
  },
  (t) => [index('product_downloadable_links_product_idx').on(t.productId)],
);

// ---- categories ----

export const categories = pgTable(
  'categories',
  {
    id: serial('id').primaryKey(),
    /** null only for the tree root (id 1) */
    parentId: integer('parent_id'),
    /** ids from the root, slash separated: "1/2/5" */
    path: text('path').notNull(),
    level: integer('level').notNull(),
    position: integer('position').notNull().default(0),
    name: text('name').notNull(),
    urlKey: text('url_key'),
    /** url keys from below the store root, slash separated: "women/dresses" */
    urlPath: text('url_path'),
    isActive: boolean('is_active').notNull().default(true),
    includeInMenu: boolean('include_in_menu').notNull().default(true),
    isAnchor: boolean('is_anchor').notNull().default(true),
    description: text('description'),
    image: text('image'),
    displayMode: text('display_mode'),
    landingPageId: integer('landing_page_id'),
    availableSortBy: text('available_sort_by').array(),
    defaultSortBy: text('default_sort_by'),
    metaTitle: text('meta_title'),
    metaKeywords: text('meta_keywords'),
    metaDescription: text('meta_description'),
    pageLayout: text('page_layout'),
    filterPriceRange: numeric('filter_price_range', { precision: 20, scale: 4 }),
    storeValues: jsonb('store_values').$type<StoreValues>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('categories_parent_idx').on(t.parentId, t.position), index('categories_path_idx').on(t.path)],
);

export const categoryProducts = pgTable(
  'category_products',
  {
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.productId] }), index('category_products_product_idx').on(t.productId)],
);

/**
 * Storefront searches, one row per store view, normalised term (trimmed, lower case) and day (of the store view's
 * time zone): how often it was searched that day, how many products the last search found, and when that was.
 */
export const searchTerms = pgTable(
  'search_terms',
  {
    storeId: integer('store_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    term: text('term').notNull(),
    hits: integer('hits').notNull().default(0),
    results: integer('results').notNull().default(0),
    lastSearchedAt: timestamp('last_searched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.day, t.storeId, t.term] })],
);
