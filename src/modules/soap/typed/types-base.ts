/** Magento's SOAP V2 types of the interface itself (associative arrays, filters, resources and faults), stores, directory, customers, stock, gift messages, tags, downloadable links and the blog: see schema.ts for the notation. */
export const BASE_TYPES: Record<string, string> = {
  associativeEntity: 'key! value!',
  associativeArray: '[]associativeEntity',
  associativeMultiEntity: 'key! value:ArrayOfString!',
  associativeMultiArray: '[]associativeMultiEntity',
  filters: 'filter:associativeArray complex_filter:complexFilterArray',
  complexFilterArray: '[]complexFilter',
  complexFilter: 'key! value:associativeEntity!',
  ArrayOfString: '[]string',
  ArrayOfInt: '[]int',
  apiMethodEntity: 'title! path! name! aliases:ArrayOfString!',
  ArrayOfApiMethods: '[]apiMethodEntity',
  apiEntity: 'title! name! aliases:ArrayOfString! methods:ArrayOfApiMethods!',
  ArrayOfApis: '[]apiEntity',
  existsFaltureEntity: 'code! message!',
  ArrayOfExistsFaltures: '[]existsFaltureEntity',
  storeEntity: 'store_id:int! code! website_id:int! group_id:int! name! sort_order:int! is_active:int!',
  storeEntityArray: '[]storeEntity',
  directoryCountryEntity: 'country_id! iso2_code! iso3_code! name!',
  directoryCountryEntityArray: '[]directoryCountryEntity',
  directoryRegionEntity: 'region_id! code! name!',
  directoryRegionEntityArray: '[]directoryRegionEntity',
  customerCustomerEntityToCreate: `customer_id:int email firstname lastname middlename password website_id:int store_id:int group_id:int prefix
    suffix dob taxvat gender:int`,
  customerCustomerEntity: `customer_id:int created_at updated_at increment_id store_id:int website_id:int created_in email firstname
    middlename lastname group_id:int prefix suffix dob taxvat confirmation:boolean password_hash`,
  customerCustomerEntityArray: '[]customerCustomerEntity',
  customerGroupEntity: 'customer_group_id:int! customer_group_code!',
  customerGroupEntityArray: '[]customerGroupEntity',
  customerAddressEntityCreate: `city company country_id fax firstname lastname middlename postcode prefix region_id:int region
    street:ArrayOfString suffix telephone is_default_billing:boolean is_default_shipping:boolean`,
  customerAddressEntityItem: `customer_address_id:int created_at updated_at increment_id city company country_id fax firstname lastname
    middlename postcode prefix region region_id:int street suffix telephone is_default_billing:boolean
    is_default_shipping:boolean`,
  customerAddressEntityArray: '[]customerAddressEntityItem',
  catalogInventoryStockItemEntity: 'product_id sku qty is_in_stock',
  catalogInventoryStockItemEntityArray: '[]catalogInventoryStockItemEntity',
  catalogInventoryStockItemUpdateEntity: `qty is_in_stock:int manage_stock:int use_config_manage_stock:int min_qty:int use_config_min_qty:int
    min_sale_qty:int use_config_min_sale_qty:int max_sale_qty:int use_config_max_sale_qty:int is_qty_decimal:int
    backorders:int use_config_backorders:int notify_stock_qty:int use_config_notify_stock_qty:int`,
  catalogInventoryStockItemUpdateEntityArray: '[]catalogInventoryStockItemUpdateEntity',
  giftMessageEntity: 'from to message',
  giftMessageResponse: 'entityId result:boolean error',
  giftMessageResponseArray: '[]giftMessageResponse',
  giftMessageAssociativeProductsEntity: 'product:shoppingCartProductEntity! message:giftMessageEntity!',
  giftMessageAssociativeProductsEntityArray: '[]giftMessageAssociativeProductsEntity',
  catalogProductTagListEntity: 'tag_id! name!',
  catalogProductTagListEntityArray: '[]catalogProductTagListEntity',
  catalogProductTagAddEntity: 'tag! product_id! customer_id! store!',
  catalogProductTagUpdateEntity: 'name status base_popularity',
  catalogProductTagInfoEntity: 'name! status! base_popularity! products:associativeArray!',
  blogPostEntity: `post_id title content url_key image is_active:int publish_date meta_title meta_keywords meta_description
    meta_robots created_at updated_at stores:ArrayOfString`,
  catalogProductDownloadableLinkFileEntity: 'name base64_content',
  catalogProductDownloadableLinkAddSampleEntity: 'type file:catalogProductDownloadableLinkFileEntity url',
  catalogProductDownloadableLinkAddEntity: `title! price is_unlimited:int number_of_downloads:int is_shareable:int
    sample:catalogProductDownloadableLinkAddSampleEntity type file:catalogProductDownloadableLinkFileEntity
    link_url sample_url sort_order:int`,
  catalogProductDownloadableLinkFileInfoEntity: 'file! name! size:int! status!',
  catalogProductDownloadableLinkFileInfoEntityArray: '[]catalogProductDownloadableLinkFileInfoEntity',
  catalogProductDownloadableLinkEntity: `link_id! title! price! number_of_downloads:int is_unlimited:int is_shareable:int! link_url! link_type!
    sample_file sample_url sample_type! sort_order:int!
    file_save:catalogProductDownloadableLinkFileInfoEntityArray
    sample_file_save:catalogProductDownloadableLinkFileInfoEntityArray`,
  catalogProductDownloadableLinkEntityArray: '[]catalogProductDownloadableLinkEntity',
  catalogProductDownloadableLinkSampleEntity: `sample_id! product_id! sample_file sample_url sample_type! sort_order! default_title! store_title! title!`,
  catalogProductDownloadableLinkSampleEntityArray: '[]catalogProductDownloadableLinkSampleEntity',
  catalogProductDownloadableLinkInfoEntity: `links:catalogProductDownloadableLinkEntityArray! samples:catalogProductDownloadableLinkSampleEntityArray!`,
  magentoInfoEntity: 'magento_version! magento_edition!',
  blogPostEntityArray: '[]blogPostEntity',
};
