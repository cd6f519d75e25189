<?php
// A PIM's catalog round trip over SOAP V2 or its WS-I form, as a proxy generated from the WSDL calls it: types and
// attribute sets, a product created with an additional attribute, read, updated and listed, its tier prices,
// image, related product and custom option, a configurable product with its children, and the product deleted. SOAP_STYLE is
// `v2` or `wsi`; SOAP_SKU is a new SKU, SOAP_OTHER an existing product's SKU, SOAP_IMAGE a base64 PNG.
declare(strict_types=1);
require __DIR__ . '/common.php';

[$c, $wsi, $list, $call, $login] = typedClient();

$s = step('login', fn () => $login(env('SOAP_USER'), env('SOAP_KEY')));
$sku = env('SOAP_SKU');
$other = env('SOAP_OTHER');

step('types', fn () => array_column($call('catalogProductTypeList', ['sessionId' => $s]), 'type'));
$sets = step('sets', fn () => $call('catalogProductAttributeSetList', ['sessionId' => $s]));
$set = (string) ($sets[0]['set_id'] ?? '4');
step('attributes', fn () => array_column($call('catalogProductAttributeList', ['sessionId' => $s, 'setId' => (int) $set]), 'code'));

$id = step('create', fn () => $call('catalogProductCreate', [
    'sessionId' => $s,
    'type' => 'simple',
    'set' => $set,
    'sku' => $sku,
    'productData' => [
        'name' => 'Typed tee',
        'description' => 'Made over SOAP',
        'short_description' => 'Typed',
        'price' => '12.50',
        'status' => '1',
        'visibility' => '4',
        'weight' => '0.5',
        'tax_class_id' => '2',
        'websites' => $list(['1']),
        'additional_attributes' => $wsi
            ? $list([['key' => 'cost', 'value' => '4.20']])
            : ['single_data' => [['key' => 'cost', 'value' => '4.20']]],
    ],
    'store' => null,
]));
step('info', fn () => $call('catalogProductInfo', [
    'sessionId' => $s,
    'productId' => $sku,
    'store' => null,
    'attributes' => ['attributes' => $list(['name', 'price', 'status']), 'additional_attributes' => $list(['cost'])],
    'identifierType' => 'sku',
]));
step('update', fn () => $call('catalogProductUpdate', [
    'sessionId' => $s,
    'productId' => $sku,
    'productData' => ['price' => '15.00', 'name' => 'Typed tee, new'],
    'store' => null,
    'identifierType' => 'sku',
]));
step('list', fn () => $call('catalogProductList', ['sessionId' => $s, 'filters' => [
    'filter' => $list([['key' => 'sku', 'value' => $sku]]),
], 'store' => null]));

step('tierUpdate', fn () => $call('catalogProductAttributeTierPriceUpdate', [
    'sessionId' => $s,
    'productId' => $sku,
    'tierPrices' => $list([['customer_group_id' => 'all', 'website' => 'all', 'qty' => 5, 'price' => 11.25]]),
    'identifierType' => 'sku',
]));
step('tierInfo', fn () => $call('catalogProductAttributeTierPriceInfo', ['sessionId' => $s, 'productId' => $sku, 'identifierType' => 'sku']));

step('image', fn () => $call('catalogProductAttributeMediaCreate', [
    'sessionId' => $s,
    'productId' => $sku,
    'data' => [
        'file' => ['content' => env('SOAP_IMAGE'), 'mime' => 'image/png', 'name' => 'typed'],
        'label' => 'Front',
        'position' => '1',
        'types' => $list(['image', 'thumbnail']),
        'exclude' => '0',
    ],
    'store' => null,
    'identifierType' => 'sku',
]));
step('images', fn () => $call('catalogProductAttributeMediaList', ['sessionId' => $s, 'productId' => $sku, 'store' => null, 'identifierType' => 'sku']));

step('link', fn () => $call('catalogProductLinkAssign', [
    'sessionId' => $s,
    'type' => 'related',
    'productId' => $sku,
    'linkedProductId' => $other,
    'data' => ['position' => '1'],
    'identifierType' => 'sku',
]));
step('links', fn () => $call('catalogProductLinkList', ['sessionId' => $s, 'type' => 'related', 'productId' => $sku, 'identifierType' => 'sku']));

step('option', fn () => $call('catalogProductCustomOptionAdd', [
    'sessionId' => $s,
    'productId' => (string) $id,
    'data' => [
        'title' => 'Engraving',
        'type' => 'field',
        'sort_order' => '1',
        'is_require' => 0,
        'additional_fields' => $list([['price' => '2.00', 'price_type' => 'fixed', 'sku' => 'engr', 'max_characters' => '20']]),
    ],
    'store' => null,
]));
step('options', fn () => $call('catalogProductCustomOptionList', ['sessionId' => $s, 'productId' => (string) $id, 'store' => null]));

// a configurable product over colour and size: the children first, then the parent with its super attributes and
// children as additional attributes (V2: multi_data lists; WS-I, whose pairs carry one value: comma-separated)
$attrs = fn (array $pairs, bool $multi) => $wsi
    ? $list(array_map(fn ($k) => ['key' => $k, 'value' => is_array($pairs[$k]) ? implode(',', $pairs[$k]) : $pairs[$k]], array_keys($pairs)))
    : [($multi ? 'multi_data' : 'single_data') => array_map(fn ($k) => ['key' => $k, 'value' => $pairs[$k]], array_keys($pairs))];
$child = fn (string $color, string $size) => $call('catalogProductCreate', [
    'sessionId' => $s,
    'type' => 'simple',
    'set' => $set,
    'sku' => "$sku-$color-$size",
    'productData' => [
        'name' => "Typed tee $color $size",
        'price' => '19.90',
        'status' => '1',
        'visibility' => '1',
        'websites' => $list(['1']),
        'additional_attributes' => $attrs(['color' => $color, 'size' => $size], false),
    ],
    'store' => null,
]);
$c1 = step('child1', fn () => $child('Red', 'S'));
$c2 = step('child2', fn () => $child('Blue', 'S'));
$c3 = step('child3', fn () => $child('Red', 'M'));
step('configurable', fn () => $call('catalogProductCreate', [
    'sessionId' => $s,
    'type' => 'configurable',
    'set' => $set,
    'sku' => "$sku-conf",
    'productData' => [
        'name' => 'Typed configurable tee',
        'price' => '25.00',
        'status' => '1',
        'visibility' => '4',
        'websites' => $list(['1']),
        'additional_attributes' => $attrs(['super_attributes' => ['color', 'size'], 'child_product_ids' => [(string) $c1, (string) $c2]], true),
    ],
    'store' => null,
]));
step('configurableUpdate', fn () => $call('catalogProductUpdate', [
    'sessionId' => $s,
    'productId' => "$sku-conf",
    'productData' => [
        'name' => 'Typed configurable tee, three',
        'additional_attributes' => $attrs(['child_product_ids' => [(string) $c1, (string) $c2, (string) $c3]], true),
    ],
    'store' => null,
    'identifierType' => 'sku',
]));

step('missing', fn () => $call('catalogProductInfo', ['sessionId' => $s, 'productId' => 'no-such-sku', 'store' => null, 'attributes' => null, 'identifierType' => 'sku']));
step('delete', fn () => $call('catalogProductDelete', ['sessionId' => $s, 'productId' => $sku, 'identifierType' => 'sku']));

finish();
