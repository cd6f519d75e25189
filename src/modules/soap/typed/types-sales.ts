/** Magento's SOAP V2 types of sales documents (orders, invoices, shipments, credit memos) and the shopping cart: see schema.ts for the notation. */
export const SALES_TYPES: Record<string, string> = {
  salesOrderEntity: `increment_id parent_id store_id created_at updated_at is_active customer_id tax_amount shipping_amount
    discount_amount subtotal grand_total total_paid total_refunded total_qty_ordered total_canceled total_invoiced
    total_online_refunded total_offline_refunded base_tax_amount base_shipping_amount base_discount_amount
    base_subtotal base_grand_total base_total_paid base_total_refunded base_total_qty_ordered base_total_canceled
    base_total_invoiced base_total_online_refunded base_total_offline_refunded billing_address_id
    billing_firstname billing_lastname shipping_address_id shipping_firstname shipping_lastname billing_name
    shipping_name store_to_base_rate store_to_order_rate base_to_global_rate base_to_order_rate weight store_name
    remote_ip status state applied_rule_ids global_currency_code base_currency_code store_currency_code
    order_currency_code shipping_method shipping_description customer_email customer_firstname customer_lastname
    quote_id is_virtual customer_group_id customer_note_notify customer_is_guest email_sent order_id
    gift_message_id gift_message shipping_address:salesOrderAddressEntity billing_address:salesOrderAddressEntity
    items:salesOrderItemEntityArray payment:salesOrderPaymentEntity
    status_history:salesOrderStatusHistoryEntityArray`,
  salesOrderListEntity: `increment_id store_id created_at updated_at customer_id tax_amount shipping_amount discount_amount subtotal
    grand_total total_paid total_refunded total_qty_ordered total_canceled total_invoiced total_online_refunded
    total_offline_refunded base_tax_amount base_shipping_amount base_discount_amount base_subtotal
    base_grand_total base_total_paid base_total_refunded base_total_qty_ordered base_total_canceled
    base_total_invoiced base_total_online_refunded base_total_offline_refunded billing_address_id
    billing_firstname billing_lastname shipping_address_id shipping_firstname shipping_lastname billing_name
    shipping_name store_to_base_rate store_to_order_rate base_to_global_rate base_to_order_rate weight store_name
    remote_ip status state applied_rule_ids global_currency_code base_currency_code store_currency_code
    order_currency_code shipping_method shipping_description customer_email customer_firstname customer_lastname
    quote_id is_virtual customer_group_id customer_note_notify customer_is_guest email_sent order_id
    gift_message_id coupon_code protect_code base_discount_canceled base_discount_invoiced base_discount_refunded
    base_shipping_canceled base_shipping_invoiced base_shipping_refunded base_shipping_tax_amount
    base_shipping_tax_refunded base_subtotal_canceled base_subtotal_invoiced base_subtotal_refunded
    base_tax_canceled base_tax_invoiced base_tax_refunded base_total_invoiced_cost discount_canceled
    discount_invoiced discount_refunded shipping_canceled shipping_invoiced shipping_refunded shipping_tax_amount
    shipping_tax_refunded subtotal_canceled subtotal_invoiced subtotal_refunded tax_canceled tax_invoiced
    tax_refunded can_ship_partially can_ship_partially_item edit_increment forced_do_shipment_with_invoice
    payment_authorization_expiration paypal_ipn_customer_notified quote_address_id adjustment_negative
    adjustment_positive base_adjustment_negative base_adjustment_positive base_shipping_discount_amount
    base_subtotal_incl_tax base_total_due payment_authorization_amount shipping_discount_amount subtotal_incl_tax
    total_due customer_dob customer_middlename customer_prefix customer_suffix customer_taxvat
    discount_description ext_customer_id ext_order_id hold_before_state hold_before_status original_increment_id
    relation_child_id relation_child_real_id relation_parent_id relation_parent_real_id x_forwarded_for
    customer_note total_item_count customer_gender hidden_tax_amount base_hidden_tax_amount
    shipping_hidden_tax_amount base_shipping_hidden_tax_amount hidden_tax_invoiced base_hidden_tax_invoiced
    hidden_tax_refunded base_hidden_tax_refunded shipping_incl_tax base_shipping_incl_tax
    base_customer_balance_amount customer_balance_amount base_customer_balance_invoiced customer_balance_invoiced
    base_customer_balance_refunded customer_balance_refunded base_customer_balance_total_refunded
    customer_balance_total_refunded gift_cards base_gift_cards_amount gift_cards_amount base_gift_cards_invoiced
    gift_cards_invoiced base_gift_cards_refunded gift_cards_refunded reward_points_balance
    base_reward_currency_amount reward_currency_amount base_reward_currency_amount_invoiced
    reward_currency_amount_invoiced base_reward_currency_amount_refunded reward_currency_amount_refunded
    reward_points_balance_refunded reward_points_balance_to_refund reward_salesrule_points firstname lastname
    telephone postcode`,
  salesOrderListEntityArray: '[]salesOrderListEntity',
  salesOrderAddressEntity: `increment_id parent_id created_at updated_at is_active address_type firstname middlename lastname company
    vat_id vat_is_valid vat_request_id vat_request_date vat_request_success street city region postcode country_id
    telephone fax region_id address_id`,
  salesOrderItemEntity: `item_id order_id quote_item_id created_at updated_at product_id product_type product_options weight is_virtual
    sku name applied_rule_ids free_shipping is_qty_decimal no_discount qty_canceled qty_invoiced qty_ordered
    qty_refunded qty_shipped cost price base_price original_price base_original_price tax_percent tax_amount
    base_tax_amount tax_invoiced base_tax_invoiced discount_percent discount_amount base_discount_amount
    discount_invoiced base_discount_invoiced amount_refunded base_amount_refunded row_total base_row_total
    row_invoiced base_row_invoiced row_weight gift_message_id gift_message gift_message_available
    base_tax_before_discount tax_before_discount weee_tax_applied weee_tax_applied_amount
    weee_tax_applied_row_amount base_weee_tax_applied_amount base_weee_tax_applied_row_amount weee_tax_disposition
    weee_tax_row_disposition base_weee_tax_disposition base_weee_tax_row_disposition`,
  salesOrderItemEntityArray: '[]salesOrderItemEntity',
  orderItemIdQty: 'order_item_id:int! qty:double!',
  orderItemIdQtyArray: '[]orderItemIdQty',
  salesOrderPaymentEntity: `increment_id parent_id created_at updated_at is_active amount_ordered shipping_amount base_amount_ordered
    base_shipping_amount method po_number cc_type cc_number_enc cc_last4 cc_owner cc_exp_month cc_exp_year
    cc_ss_start_month cc_ss_start_year payment_id`,
  salesOrderStatusHistoryEntity: 'increment_id parent_id created_at updated_at is_active is_customer_notified status comment',
  salesOrderStatusHistoryEntityArray: '[]salesOrderStatusHistoryEntity',
  salesOrderShipmentEntity: `increment_id parent_id store_id created_at updated_at is_active shipping_address_id shipping_firstname
    shipping_lastname order_id order_increment_id order_created_at total_qty shipment_id
    items:salesOrderShipmentItemEntityArray tracks:salesOrderShipmentTrackEntityArray
    comments:salesOrderShipmentCommentEntityArray`,
  salesOrderShipmentEntityArray: '[]salesOrderShipmentEntity',
  salesOrderShipmentCommentEntity: 'increment_id parent_id created_at updated_at is_active comment is_customer_notified comment_id',
  salesOrderShipmentCommentEntityArray: '[]salesOrderShipmentCommentEntity',
  salesOrderShipmentTrackEntity: 'increment_id parent_id created_at updated_at is_active carrier_code title number order_id track_id',
  salesOrderShipmentTrackEntityArray: '[]salesOrderShipmentTrackEntity',
  salesOrderShipmentItemEntity: `increment_id parent_id created_at updated_at is_active sku name order_item_id product_id weight price qty
    item_id`,
  salesOrderShipmentItemEntityArray: '[]salesOrderShipmentItemEntity',
  salesOrderInvoiceEntity: `increment_id parent_id store_id created_at updated_at is_active global_currency_code base_currency_code
    store_currency_code order_currency_code store_to_base_rate store_to_order_rate base_to_global_rate
    base_to_order_rate subtotal base_subtotal base_grand_total discount_amount base_discount_amount
    shipping_amount base_shipping_amount tax_amount base_tax_amount billing_address_id billing_firstname
    billing_lastname order_id order_increment_id order_created_at state grand_total invoice_id
    items:salesOrderInvoiceItemEntityArray comments:salesOrderInvoiceCommentEntityArray`,
  salesOrderInvoiceEntityArray: '[]salesOrderInvoiceEntity',
  salesOrderInvoiceItemEntity: `increment_id parent_id created_at updated_at is_active weee_tax_applied qty cost price tax_amount row_total
    base_price base_tax_amount base_row_total base_weee_tax_applied_amount base_weee_tax_applied_row_amount
    weee_tax_applied_amount weee_tax_applied_row_amount weee_tax_disposition weee_tax_row_disposition
    base_weee_tax_disposition base_weee_tax_row_disposition sku name order_item_id product_id item_id`,
  salesOrderInvoiceItemEntityArray: '[]salesOrderInvoiceItemEntity',
  salesOrderInvoiceCommentEntity: 'increment_id parent_id created_at updated_at is_active comment is_customer_notified comment_id',
  salesOrderInvoiceCommentEntityArray: '[]salesOrderInvoiceCommentEntity',
  salesOrderCreditmemoEntity: `updated_at created_at increment_id transaction_id global_currency_code base_currency_code order_currency_code
    store_currency_code cybersource_token invoice_id billing_address_id shipping_address_id state
    creditmemo_status email_sent order_id tax_amount shipping_tax_amount base_tax_amount base_adjustment_positive
    base_grand_total adjustment subtotal discount_amount base_subtotal base_adjustment base_to_global_rate
    store_to_base_rate base_shipping_amount adjustment_negative subtotal_incl_tax shipping_amount
    base_subtotal_incl_tax base_adjustment_negative grand_total base_discount_amount base_to_order_rate
    store_to_order_rate base_shipping_tax_amount adjustment_positive store_id hidden_tax_amount
    base_hidden_tax_amount shipping_hidden_tax_amount base_shipping_hidden_tax_amnt shipping_incl_tax
    base_shipping_incl_tax base_customer_balance_amount customer_balance_amount bs_customer_bal_total_refunded
    customer_bal_total_refunded base_gift_cards_amount gift_cards_amount gw_base_price gw_price
    gw_items_base_price gw_items_price gw_card_base_price gw_card_price gw_base_tax_amount gw_tax_amount
    gw_items_base_tax_amount gw_items_tax_amount gw_card_base_tax_amount gw_card_tax_amount
    base_reward_currency_amount reward_currency_amount reward_points_balance reward_points_balance_refund
    creditmemo_id items:salesOrderCreditmemoItemEntityArray comments:salesOrderCreditmemoCommentEntityArray`,
  salesOrderCreditmemoEntityArray: '[]salesOrderCreditmemoEntity',
  salesOrderCreditmemoItemEntity: `item_id parent_id weee_tax_applied_row_amount base_price base_weee_tax_row_disposition tax_amount
    base_weee_tax_applied_amount weee_tax_row_disposition base_row_total discount_amount row_total
    weee_tax_applied_amount base_discount_amount base_weee_tax_disposition price_incl_tax base_tax_amount
    weee_tax_disposition base_price_incl_tax qty base_cost base_weee_tax_applied_row_amount price
    base_row_total_incl_tax row_total_incl_tax product_id order_item_id additional_data description
    weee_tax_applied sku name hidden_tax_amount base_hidden_tax_amount`,
  salesOrderCreditmemoItemEntityArray: '[]salesOrderCreditmemoItemEntity',
  salesOrderCreditmemoCommentEntity: 'parent_id created_at comment is_customer_notified comment_id is_visible_on_front',
  salesOrderCreditmemoCommentEntityArray: '[]salesOrderCreditmemoCommentEntity',
  salesOrderCreditmemoData: `qtys:orderItemIdQtyArray shipping_amount:double adjustment_positive:double adjustment_negative:double`,
  shoppingCartAddressEntity: `address_id created_at updated_at customer_id save_in_address_book:int customer_address_id address_type email
    prefix firstname middlename lastname suffix company street city region region_id postcode country_id telephone
    fax same_as_billing:int free_shipping:int shipping_method shipping_description weight:double fax`,
  shoppingCartItemEntity: `item_id created_at updated_at product_id store_id parent_item_id is_virtual:int sku name description
    applied_rule_ids additional_data free_shipping is_qty_decimal no_discount weight:double qty:double
    price:double base_price:double custom_price:double discount_percent:double discount_amount:double
    base_discount_amount:double tax_percent:double tax_amount:double base_tax_amount:double row_total:double
    base_row_total:double row_total_with_discount:double row_weight:double product_type
    base_tax_before_discount:double tax_before_discount:double original_custom_price:double base_cost:double
    price_incl_tax:double base_price_incl_tax:double row_total_incl_tax:double base_row_total_incl_tax:double
    gift_message_id gift_message gift_message_available weee_tax_applied:double weee_tax_applied_amount:double
    weee_tax_applied_row_amount:double base_weee_tax_applied_amount:double base_weee_tax_applied_row_amount:double
    weee_tax_disposition:double weee_tax_row_disposition:double base_weee_tax_disposition:double
    base_weee_tax_row_disposition:double tax_class_id`,
  shoppingCartItemEntityArray: '[]shoppingCartItemEntity',
  shoppingCartPaymentEntity: `payment_id created_at updated_at method cc_type cc_number_enc cc_last4 cc_cid_enc cc_owner cc_exp_month
    cc_exp_year cc_ss_owner cc_ss_start_month cc_ss_start_year cc_ss_issue po_number additional_data
    additional_information`,
  shoppingCartInfoEntity: `store_id created_at updated_at converted_at quote_id:int is_active:int is_virtual:int items_count:double
    items_qty:double orig_order_id store_to_base_rate store_to_quote_rate base_currency_code store_currency_code
    quote_currency_code grand_total base_grand_total checkout_method customer_id customer_tax_class_id
    customer_group_id:int customer_email customer_prefix customer_firstname customer_middlename customer_lastname
    customer_suffix customer_note customer_note_notify customer_is_guest applied_rule_ids reserved_order_id
    password_hash coupon_code global_currency_code base_to_global_rate:double base_to_quote_rate:double
    customer_taxvat customer_gender subtotal:double base_subtotal:double subtotal_with_discount:double
    base_subtotal_with_discount:double ext_shipping_info gift_message_id gift_message
    customer_balance_amount_used:double base_customer_balance_amount_used:double use_customer_balance
    gift_cards_amount base_gift_cards_amount gift_cards_amount_used use_reward_points reward_points_balance
    base_reward_currency_amount reward_currency_amount shipping_address:shoppingCartAddressEntity
    billing_address:shoppingCartAddressEntity items:shoppingCartItemEntityArray payment:shoppingCartPaymentEntity`,
  shoppingCartTotalsEntity: 'title amount:double',
  shoppingCartTotalsEntityArray: '[]shoppingCartTotalsEntity',
  shoppingCartLicenseEntity: 'agreement_id name content is_active:int is_html:int',
  shoppingCartLicenseEntityArray: '[]shoppingCartLicenseEntity',
  shoppingCartProductEntity: `product_id sku qty:double options:associativeArray bundle_option:associativeArray
    bundle_option_qty:associativeArray links:ArrayOfString`,
  shoppingCartProductEntityArray: '[]shoppingCartProductEntity',
  shoppingCartProductResponseEntityArray: '[]catalogProductEntity',
  shoppingCartCustomerEntity: `mode customer_id:int email firstname lastname password confirmation website_id:int store_id:int group_id:int`,
  shoppingCartCustomerAddressEntity: `mode address_id firstname lastname company street city region region_id postcode country_id telephone fax
    is_default_billing:int is_default_shipping:int`,
  shoppingCartCustomerAddressEntityArray: '[]shoppingCartCustomerAddressEntity',
  shoppingCartShippingMethodEntity: 'code carrier carrier_title method method_title method_description price:double',
  shoppingCartShippingMethodEntityArray: '[]shoppingCartShippingMethodEntity',
  shoppingCartPaymentMethodEntity: 'po_number method cc_cid cc_owner cc_number cc_type cc_exp_year cc_exp_month',
  shoppingCartPaymentMethodResponseEntity: 'code! title! cc_types:associativeArray!',
  shoppingCartPaymentMethodResponseEntityArray: '[]shoppingCartPaymentMethodResponseEntity',
};
