<?php
// An ERP's round trip over SOAP V2 (rpc/encoded) or its WS-I form (document/literal), as a proxy generated from
// the WSDL calls it: stores and directory, new orders by a date filter, an order's details, a partial invoice,
// a shipment with tracking, a refund, the stock of 100 SKUs in one call, the category tree, an order placed
// through the shopping cart API, the interface's own operations and their faults. SOAP_STYLE is `v2` or `wsi`; SOAP_ORDER, SOAP_SINCE and SOAP_SKUS (comma-separated)
// name the data the test made.
declare(strict_types=1);
require __DIR__ . '/common.php';

[$c, $wsi, $list, $call, $login] = typedClient();

$s = step('login', fn () => $login(env('SOAP_USER'), env('SOAP_KEY')));
$order = env('SOAP_ORDER');
$skus = explode(',', env('SOAP_SKUS'));

step('stores', fn () => $call('storeList', ['sessionId' => $s]));
step('version', fn () => $call('magentoInfo', ['sessionId' => $s]));
step('countries', fn () => count($call('directoryCountryList', ['sessionId' => $s])));
step('regions', fn () => $call('directoryRegionList', ['sessionId' => $s, 'country' => 'US'])[0] ?? null);
step('groups', fn () => $call('customerGroupList', ['sessionId' => $s]));

step('newOrders', fn () => $call('salesOrderList', ['sessionId' => $s, 'filters' => [
    'filter' => $list([['key' => 'increment_id', 'value' => $order]]),
    'complex_filter' => $list([
        ['key' => 'created_at', 'value' => ['key' => 'from', 'value' => env('SOAP_SINCE')]],
        ['key' => 'status', 'value' => ['key' => 'in', 'value' => 'pending,processing']],
    ]),
]]));
$info = step('info', fn () => $call('salesOrderInfo', ['sessionId' => $s, 'orderIncrementId' => $order]));
$items = $info['items'] ?? [];
$first = $items[0]['item_id'] ?? '0';

$invoice = step('invoice', fn () => $call('salesOrderInvoiceCreate', [
    'sessionId' => $s,
    'invoiceIncrementId' => $order,
    'itemsQty' => $list([['order_item_id' => (int) $first, 'qty' => 1.0]]),
    'comment' => 'Invoiced by the ERP',
    'email' => '0',
    'includeComment' => '0',
]));
step('invoiceInfo', fn () => $call('salesOrderInvoiceInfo', ['sessionId' => $s, 'invoiceIncrementId' => $invoice]));

$shipment = step('ship', fn () => $call('salesOrderShipmentCreate', [
    'sessionId' => $s,
    'orderIncrementId' => $order,
    'itemsQty' => $list([['order_item_id' => (int) $first, 'qty' => 1.0]]),
    'comment' => 'Packed',
    'email' => 0,
    'includeComment' => 0,
]));
step('carriers', fn () => $call('salesOrderShipmentGetCarriers', ['sessionId' => $s, 'orderIncrementId' => $order]));
step('track', fn () => $call('salesOrderShipmentAddTrack', [
    'sessionId' => $s,
    'shipmentIncrementId' => $shipment,
    'carrier' => 'ups',
    'title' => 'UPS',
    'trackNumber' => '1Z999',
]));
step('shipmentInfo', fn () => $call('salesOrderShipmentInfo', ['sessionId' => $s, 'shipmentIncrementId' => $shipment]));

$memo = step('refund', fn () => $call('salesOrderCreditmemoCreate', [
    'sessionId' => $s,
    'orderIncrementId' => $order,
    'creditmemoData' => ['qtys' => $list([['order_item_id' => (int) $first, 'qty' => 1.0]]), 'shipping_amount' => 0, 'adjustment_positive' => 0.5],
    'comment' => 'Returned',
    'notifyCustomer' => 0,
    'includeComment' => 0,
]));
step('refundInfo', fn () => $call('salesOrderCreditmemoInfo', ['sessionId' => $s, 'creditmemoIncrementId' => $memo]));

step('stock', fn () => $call('catalogInventoryStockItemMultiUpdate', [
    'sessionId' => $s,
    'productIds' => $list($skus),
    'productData' => $list(array_map(fn ($i) => ['qty' => (string) (10 + $i), 'is_in_stock' => 1], array_keys($skus))),
]));
step('stockList', fn () => $call('catalogInventoryStockItemList', ['sessionId' => $s, 'productIds' => $list(array_slice($skus, 0, 3))]));
step('tree', fn () => $call('catalogCategoryTree', ['sessionId' => $s, 'parentId' => '1', 'store' => null])['category_id'] ?? null);

// an order through the shopping cart API: a guest buys two of one of the SKUs
$address = fn (string $mode) => [
    'mode' => $mode,
    'firstname' => 'Sol',
    'lastname' => 'Ap',
    'street' => '1 Test Road',
    'city' => 'Austin',
    'region' => 'TX',
    'postcode' => '73301',
    'country_id' => 'US',
    'telephone' => '555-0199',
];
$cart = (int) step('cartCreate', fn () => $call('shoppingCartCreate', ['sessionId' => $s, 'store' => 'default']));
$inCart = ['sessionId' => $s, 'quoteId' => $cart];
step('cartAdd', fn () => $call('shoppingCartProductAdd', $inCart + ['productsData' => $list([['sku' => $skus[5], 'qty' => 2.0]]), 'store' => 'default']));
step('cartProducts', fn () => array_column($call('shoppingCartProductList', $inCart + ['store' => 'default']), 'sku'));
step('cartCustomer', fn () => $call('shoppingCartCustomerSet', $inCart + [
    'customerData' => ['mode' => 'guest', 'email' => env('SOAP_GUEST'), 'firstname' => 'Sol', 'lastname' => 'Ap'],
    'store' => 'default',
]));
step('cartAddresses', fn () => $call('shoppingCartCustomerAddresses', $inCart + [
    'customerAddressData' => $list([$address('billing'), $address('shipping')]),
    'store' => 'default',
]));
step('cartRates', fn () => array_column($call('shoppingCartShippingList', $inCart + ['store' => 'default']), 'code'));
step('cartShipping', fn () => $call('shoppingCartShippingMethod', $inCart + ['shippingMethod' => 'flatrate_flatrate', 'store' => 'default']));
step('cartPayments', fn () => array_column($call('shoppingCartPaymentList', $inCart + ['store' => 'default']), 'code'));
step('cartPayment', fn () => $call('shoppingCartPaymentMethod', $inCart + ['paymentData' => ['method' => 'checkmo'], 'store' => 'default']));
step('cartTotals', fn () => $call('shoppingCartTotals', $inCart + ['store' => 'default']));
$placed = step('cartOrder', fn () => $call('shoppingCartOrder', $inCart + ['store' => 'default', 'agreements' => null]));
step('cartOrderInfo', fn () => $call('salesOrderInfo', ['sessionId' => $s, 'orderIncrementId' => $placed]));

step('resources', fn () => array_column($call('resources', ['sessionId' => $s]), 'name'));
step('globalFaults', fn () => count($call('globalFaults', ['sessionId' => $s])));
step('resourceFaults', fn () => $wsi
    ? plain($c->resourceFaults(['sessionId' => $s, 'resourceName' => 'sales_order'])->result)
    : plain($c->resourceFaults($s, 'sales_order')));  // by position, as Magento's handler reads them

step('missingOrder', fn () => $call('salesOrderInfo', ['sessionId' => $s, 'orderIncrementId' => 'no-such-order']));
step('badFilter', fn () => $call('salesOrderList', ['sessionId' => $s, 'filters' => [
    'complex_filter' => $list([['key' => 'created_at', 'value' => ['key' => 'from', 'value' => 'not a date']]]),
]]));
step('expired', fn () => $call('salesOrderList', ['sessionId' => 'no-such-session', 'filters' => []]));
$denied = $login(env('SOAP_DENIED_USER'), env('SOAP_DENIED_KEY'));
step('denied', fn () => $call('salesOrderInfo', ['sessionId' => $denied, 'orderIncrementId' => $order]));
step('endSession', fn () => $wsi ? $c->endSession(['sessionId' => $s])->result : $c->endSession($s));

finish();
