<?php
// An ERP on SOAP V1 (`call` and `multiCall` with resource paths), as integrations written against Magento 1 call
// it from PHP's SoapClient: the new orders by a date filter, one order's details, an invoice, a shipment with
// tracking and a refund in one multiCall, the stock of 100 SKUs in one call, a configurable product with its
// children, and an order through the shopping cart API. SOAP_ORDER, SOAP_SINCE, SOAP_SKUS and SOAP_GUEST name the
// data the test made.
declare(strict_types=1);
require __DIR__ . '/common.php';

$c = client(env('SOAP_BASE') . '/api/soap/?wsdl');
$s = step('login', fn () => $c->login(env('SOAP_USER'), env('SOAP_KEY')));
$order = env('SOAP_ORDER');
$skus = explode(',', env('SOAP_SKUS'));
$tag = env('SOAP_TAG');

step('newOrders', fn () => array_column($c->call($s, 'sales_order.list', [[
    'created_at' => ['from' => env('SOAP_SINCE')],
    'increment_id' => $order,
]]), 'increment_id'));
$info = step('info', fn () => $c->call($s, 'order.info', $order));
$first = $info['items'][0]['item_id'] ?? '0';

// invoice, ship with tracking and refund one unit in one request; each entry answers on its own
$batch = step('batch', fn () => $c->multiCall($s, [
    ['sales_order_invoice.create', [$order, [$first => 1], 'Invoiced by the ERP']],
    ['sales_order_shipment.create', [$order, [$first => 1], 'Packed']],
    ['sales_order_creditmemo.create', [$order, ['qtys' => [$first => 1], 'shipping_amount' => 0]]],
    ['sales_order.info', ['no-such-order']],
]));
$shipment = $batch[1] ?? null;
step('track', fn () => $c->call($s, 'sales_order_shipment.addTrack', [$shipment, 'ups', 'UPS', '1Z-V1']));
step('shipmentInfo', fn () => $c->call($s, 'order_shipment.info', $shipment)['tracks'][0]['number'] ?? null);

step('stock', fn () => $c->call($s, 'product_stock.multiUpdate', [
    $skus,
    array_map(fn ($i) => ['qty' => 200 + $i, 'is_in_stock' => 1], array_keys($skus)),
]));
step('stockList', fn () => array_column($c->call($s, 'product_stock.list', [array_slice($skus, 0, 2)]), 'qty'));

$child = fn (string $color, string $size) => $c->call($s, 'catalog_product.create', [
    'simple',
    '1',
    "$tag-$color-$size",
    ['name' => "V1 tee $color $size", 'price' => '19.90', 'status' => 1, 'visibility' => 1, 'websites' => [1], 'color' => $color, 'size' => $size],
]);
$c1 = step('child1', fn () => $child('Red', 'S'));
$c2 = step('child2', fn () => $child('Blue', 'S'));
$c3 = step('child3', fn () => $child('Red', 'M'));
$conf = step('configurable', fn () => $c->call($s, 'product.create', [
    'configurable',
    '1',
    $tag,
    ['name' => 'V1 tee', 'price' => '25.00', 'status' => 1, 'visibility' => 4, 'websites' => [1], 'super_attributes' => ['color', 'size'], 'child_product_ids' => [$c1, $c2]],
]));
step('configurableUpdate', fn () => $c->call($s, 'product.update', [$tag, ['name' => 'V1 tee, three', 'child_product_ids' => [$c1, $c2, $c3]], null, 'sku']));

$cart = step('cartCreate', fn () => $c->call($s, 'cart.create', ['default']));
$address = fn (string $mode) => [
    'mode' => $mode, 'firstname' => 'Vee', 'lastname' => 'One', 'street' => '1 Test Road', 'city' => 'Austin',
    'region' => 'TX', 'postcode' => '73301', 'country_id' => 'US', 'telephone' => '555-0199',
];
step('cartFill', fn () => $c->multiCall($s, [
    ['cart_product.add', [$cart, [['sku' => $skus[7], 'qty' => 1]]]],
    ['cart_customer.set', [$cart, ['mode' => 'guest', 'email' => env('SOAP_GUEST'), 'firstname' => 'Vee', 'lastname' => 'One']]],
    ['cart_customer.addresses', [$cart, [$address('billing'), $address('shipping')]]],
    ['cart_shipping.method', [$cart, 'flatrate_flatrate']],
    ['cart_payment.method', [$cart, ['method' => 'checkmo']]],
], ['break' => 1]));
$placed = step('cartOrder', fn () => $c->call($s, 'cart.order', [$cart]));
step('cartOrderInfo', fn () => $c->call($s, 'sales_order.info', $placed)['customer_email'] ?? null);
step('endSession', fn () => $c->endSession($s));

finish();
