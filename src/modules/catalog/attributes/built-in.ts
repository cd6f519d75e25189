/** Attributes whose values are fixed by the product model: built-in choice lists and codes never written as custom values. */

/** Values of select attributes whose choices are a fixed list rather than option rows. */
export const BUILT_IN_OPTIONS: Record<string, { value: string | number; label: string }[]> = {
  status: [
    { value: 'enabled', label: 'Enabled' },
    { value: 'disabled', label: 'Disabled' },
  ],
  visibility: [
    { value: 'not_visible', label: 'Not Visible Individually' },
    { value: 'catalog', label: 'Catalog' },
    { value: 'search', label: 'Search' },
    { value: 'catalog_search', label: 'Catalog, Search' },
  ],
  sku_type: [
    { value: 0, label: 'Dynamic' },
    { value: 1, label: 'Fixed' },
  ],
  weight_type: [
    { value: 0, label: 'Dynamic' },
    { value: 1, label: 'Fixed' },
  ],
  price_type: [
    { value: 0, label: 'Dynamic' },
    { value: 1, label: 'Fixed' },
  ],
  price_view: [
    { value: 0, label: 'Price Range' },
    { value: 1, label: 'As Low as' },
  ],
  shipment_type: [
    { value: 0, label: 'Together' },
    { value: 1, label: 'Separately' },
  ],
  msrp_enabled: [
    { value: 0, label: 'No' },
    { value: 1, label: 'Yes' },
    { value: 2, label: 'Use config' },
  ],
  msrp_display_actual_price_type: [
    { value: 1, label: 'In Cart' },
    { value: 2, label: 'Before Order Confirmation' },
    { value: 3, label: 'On Gesture' },
    { value: 4, label: 'Use config' },
  ],
  meta_robots: [
    { value: 'INDEX,FOLLOW', label: 'INDEX, FOLLOW' },
    { value: 'NOINDEX,FOLLOW', label: 'NOINDEX, FOLLOW' },
    { value: 'INDEX,NOFOLLOW', label: 'INDEX, NOFOLLOW' },
    { value: 'NOINDEX,NOFOLLOW', label: 'NOINDEX, NOFOLLOW' },
  ],
  page_layout: [
    { value: 'empty', label: 'Empty' },
    { value: 'one_column', label: '1 column' },
    { value: 'two_columns_left', label: '2 columns with left bar' },
    { value: 'two_columns_right', label: '2 columns with right bar' },
    { value: 'three_columns', label: '3 columns' },
  ],
  options_container: [
    { value: 'container1', label: 'Product Info Column' },
    { value: 'container2', label: 'Block after Info Column' },
  ],
};

/** Codes never written through customAttributesWrite, besides every system attribute. */
export const RESERVED_ATTRIBUTE_CODES: ReadonlySet<string> = new Set([
  'entity_id',
  'type_id',
  'sku',
  'attribute_set_id',
  'tax_class_id',
  'website_ids',
  'stock_data',
  'status',
  'visibility',
  'created_at',
  'updated_at',
  'entity_type_id',
]);
