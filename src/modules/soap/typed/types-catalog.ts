/** Magento's SOAP V2 types of the catalog: categories, products, attributes and sets, media, tier prices, links and custom options: see schema.ts for the notation. */
export const CATALOG_TYPES: Record<string, string> = {
  catalogProductCreateEntity: `categories:ArrayOfString websites:ArrayOfString name description short_description weight status url_key
    url_path visibility category_ids:ArrayOfString website_ids:ArrayOfString has_options gift_message_available
    price special_price special_from_date special_to_date tax_class_id
    tier_price:catalogProductTierPriceEntityArray meta_title meta_keyword meta_description custom_design
    custom_layout_update options_container additional_attributes:catalogProductAdditionalAttributesEntity`,
  catalogProductEntityArray: '[]catalogProductEntity',
  catalogProductAdditionalAttributesEntity: 'multi_data:associativeMultiArray single_data:associativeArray',
  catalogProductEntity: 'product_id! sku! name! set! type! category_ids:ArrayOfString! website_ids:ArrayOfString!',
  catalogProductRequestAttributes: 'attributes:ArrayOfString additional_attributes:ArrayOfString',
  catalogProductReturnEntity: `product_id sku set type categories:ArrayOfString websites:ArrayOfString created_at updated_at type_id name
    description short_description weight status url_key url_path visibility category_ids:ArrayOfString
    website_ids:ArrayOfString has_options gift_message_available price special_price special_from_date
    special_to_date tax_class_id tier_price:catalogProductTierPriceEntityArray meta_title meta_keyword
    meta_description custom_design custom_layout_update options_container additional_attributes:associativeArray`,
  catalogProductCreateEntityArray: '[]catalogProductCreateEntity',
  catalogProductAttributeSetEntity: 'set_id:int name',
  catalogProductAttributeSetEntityArray: '[]catalogProductAttributeSetEntity',
  catalogProductTypeEntity: 'type label',
  catalogProductTypeEntityArray: '[]catalogProductTypeEntity',
  catalogProductTierPriceEntity: 'customer_group_id website qty:int price:double',
  catalogProductTierPriceEntityArray: '[]catalogProductTierPriceEntity',
  ArrayOfCatalogCategoryEntities: '[]catalogCategoryEntity',
  catalogCategoryEntity: `category_id:int! parent_id:int! name! is_active:int! position:int! level:int!
    children:ArrayOfCatalogCategoryEntities!`,
  catalogCategoryEntityNoChildren: 'category_id:int! parent_id:int! name! is_active:int! position:int! level:int!',
  ArrayOfCatalogCategoryEntitiesNoChildren: '[]catalogCategoryEntityNoChildren',
  catalogCategoryTree: `category_id:int! parent_id:int! name! position:int! level:int! children:ArrayOfCatalogCategoryEntities!`,
  catalogCategoryEntityCreate: `name is_active:int position:int available_sort_by:ArrayOfString custom_design custom_design_apply:int
    custom_design_from custom_design_to custom_layout_update default_sort_by description display_mode
    is_anchor:int landing_page:int meta_description meta_keywords meta_title page_layout url_key
    include_in_menu:int`,
  catalogCategoryInfo: `category_id! is_active:int! position! level! parent_id! all_children! children! created_at updated_at name
    url_key description meta_title meta_keywords meta_description path url_path children_count:int display_mode
    is_anchor:int available_sort_by:ArrayOfString custom_design custom_design_apply custom_design_from
    custom_design_to page_layout custom_layout_update default_sort_by landing_page:int include_in_menu:int
    custom_use_parent_settings:int custom_apply_to_products:int filter_price_range`,
  catalogAssignedProduct: 'product_id:int! type! set:int! sku! position:int!',
  catalogAssignedProductArray: '[]catalogAssignedProduct',
  catalogAttributeEntity: 'attribute_id:int code type required scope',
  catalogAttributeEntityArray: '[]catalogAttributeEntity',
  catalogAttributeOptionEntity: 'label! value!',
  catalogAttributeOptionEntityArray: '[]catalogAttributeOptionEntity',
  catalogProductImageEntity: 'file! label! position! exclude! url! types:ArrayOfString!',
  catalogProductImageEntityArray: '[]catalogProductImageEntity',
  catalogProductAttributeMediaTypeEntity: 'code! scope!',
  catalogProductAttributeMediaTypeEntityArray: '[]catalogProductAttributeMediaTypeEntity',
  catalogProductImageFileEntity: 'content! mime! name',
  catalogProductAttributeMediaCreateEntity: 'file:catalogProductImageFileEntity label position types:ArrayOfString exclude remove',
  catalogProductLinkEntity: 'product_id type set sku position qty',
  catalogProductLinkEntityArray: '[]catalogProductLinkEntity',
  catalogProductLinkAttributeEntity: 'code type',
  catalogProductLinkAttributeEntityArray: '[]catalogProductLinkAttributeEntity',
  catalogProductAttributeFrontendLabelEntity: 'store_id! label!',
  catalogProductAttributeFrontendLabelArray: '[]catalogProductAttributeFrontendLabelEntity',
  catalogProductAttributeEntityToCreate: `attribute_code! frontend_input! scope default_value is_unique:int is_required:int apply_to:ArrayOfString
    is_configurable:int is_searchable:int is_visible_in_advanced_search:int is_comparable:int
    is_used_for_promo_rules:int is_visible_on_front:int used_in_product_listing:int
    additional_fields:associativeArray frontend_label:catalogProductAttributeFrontendLabelArray!`,
  catalogProductAttributeEntityToUpdate: `scope default_value is_unique:int is_required:int apply_to:ArrayOfString is_configurable:int is_searchable:int
    is_visible_in_advanced_search:int is_comparable:int is_used_for_promo_rules:int is_visible_on_front:int
    used_in_product_listing:int additional_fields:associativeArray
    frontend_label:catalogProductAttributeFrontendLabelArray!`,
  catalogProductAttributeEntity: `attribute_id! attribute_code! frontend_input! scope default_value is_unique:int is_required:int
    apply_to:ArrayOfString is_configurable:int is_searchable:int is_visible_in_advanced_search:int
    is_comparable:int is_used_for_promo_rules:int is_visible_on_front:int used_in_product_listing:int
    additional_fields:associativeArray options:catalogAttributeOptionEntityArray
    frontend_label:catalogProductAttributeFrontendLabelArray!`,
  catalogProductAttributeOptionLabelEntity: 'store_id:ArrayOfString! value!',
  catalogProductAttributeOptionLabelArray: '[]catalogProductAttributeOptionLabelEntity',
  catalogProductAttributeOptionEntityToAdd: 'label:catalogProductAttributeOptionLabelArray! order:int! is_default:int!',
  catalogProductCustomOptionAdditionalFieldsEntity: `title price price_type sku max_characters sort_order file_extension image_size_x image_size_y value_id`,
  catalogProductCustomOptionAdditionalFieldsArray: '[]catalogProductCustomOptionAdditionalFieldsEntity',
  catalogProductCustomOptionToAdd: `title! type! sort_order is_require:int additional_fields:catalogProductCustomOptionAdditionalFieldsArray!`,
  catalogProductCustomOptionToUpdate: `title type sort_order is_require:int additional_fields:catalogProductCustomOptionAdditionalFieldsArray`,
  catalogProductCustomOptionInfoEntity: `title! type! sort_order! is_require:int! additional_fields:catalogProductCustomOptionAdditionalFieldsArray!`,
  catalogProductCustomOptionListEntity: 'option_id! title! type! sort_order! is_require:int!',
  catalogProductCustomOptionListArray: '[]catalogProductCustomOptionListEntity',
  catalogProductCustomOptionTypesEntity: 'label! value!',
  catalogProductCustomOptionTypesArray: '[]catalogProductCustomOptionTypesEntity',
  catalogProductCustomOptionValueInfoEntity: `value_id! option_id! sku! sort_order! default_price! default_price_type! store_price! store_price_type! price!
    price_type! default_title! store_title! title!`,
  catalogProductCustomOptionValueListEntity: 'value_id! title! price! price_type! sku! sort_order!',
  catalogProductCustomOptionValueListArray: '[]catalogProductCustomOptionValueListEntity',
  catalogProductCustomOptionValueAddEntity: 'title! price! price_type! sku! sort_order',
  catalogProductCustomOptionValueAddArray: '[]catalogProductCustomOptionValueAddEntity',
  catalogProductCustomOptionValueUpdateEntity: 'title! price! price_type! sku! sort_order',
  catalogProductSpecialPriceReturnEntity: 'special_price! special_from_date! special_to_date!',
};
