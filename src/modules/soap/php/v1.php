<?php
// V1 scenario: login, call() for every customer_address method and fault, multiCall, sessions.
declare(strict_types=1);
require __DIR__ . '/common.php';

$base = env('SOAP_BASE');
$customer = (int) env('SOAP_CUSTOMER_ID');
$c = client("$base/api/soap/?wsdl");

step('loginWrongKey', fn () => $c->login(env('SOAP_USER'), 'not-the-key'));
step('loginEmpty', fn () => $c->login('', ''));
$s = step('login', fn () => $c->login(env('SOAP_USER'), env('SOAP_KEY')));

step('listEmpty', fn () => $c->call($s, 'customer_address.list', $customer));
$id = step('create', fn () => $c->call($s, 'customer_address.create', [$customer, [
    'firstname' => 'Ann',
    'lastname' => 'Lee',
    'street' => ['Main St 1', 'Apt 2'],
    'city' => 'Berlin',
    'postcode' => '10115',
    'country_id' => 'DE',
    'region_id' => 82,
    'telephone' => '030 1234',
    'company' => '',
    'is_default_billing' => true,
]]));
step('createInvalid', fn () => $c->call($s, 'customer_address.create', [$customer, ['city' => 'Berlin', 'country_id' => 'DE']]));
step('createNoCustomer', fn () => $c->call($s, 'customer_address.create', [999999, ['firstname' => 'X']]));
step('listNoCustomer', fn () => $c->call($s, 'customer_address.list', [999999]));
step('info', fn () => $c->call($s, 'customer_address.info', $id));
step('list', fn () => $c->call($s, 'customer_address.list', [$customer]));
step('update', fn () => $c->call($s, 'customer_address.update', [$id, [
    'telephone' => '030 9999',
    'street' => "Side St 5\nBack",
    'is_default_billing' => false,
    'is_default_shipping' => true,
]]));
step('infoAfterUpdate', fn () => $c->call($s, 'customer_address.info', [$id]));
step('updateInvalid', fn () => $c->call($s, 'customer_address.update', [$id, ['firstname' => '']]));
step('updateMissing', fn () => $c->call($s, 'customer_address.update', [999999, ['firstname' => 'X']]));
step('infoMissing', fn () => $c->call($s, 'customer_address.info', 999999));
step('deleteMissing', fn () => $c->call($s, 'customer_address.delete', 999999));
step('badMethod', fn () => $c->call($s, 'customer_address.foo', []));
step('badPath', fn () => $c->call($s, 'customer_address', []));
step('multiCall', fn () => $c->multiCall($s, [
    ['customer_address.info', [$id]],
    ['customer_address.info', [999999]],
    ['customer_address.nope'],
]));
step('multiCallBreak', fn () => $c->multiCall($s, [
    ['customer_address.info', [999999]],
    ['customer_address.info', [$id]],
], ['break' => 1]));
$kept = step('createKept', fn () => $c->call($s, 'customer_address.create', [$customer, [
    'firstname' => 'Kay',
    'lastname' => 'Rest',
    'street' => ['Keep Rd 3'],
    'city' => 'Hamburg',
    'postcode' => '20095',
    'country_id' => 'DE',
    'region' => 'Hamburg',
    'telephone' => '040 1',
]]));
step('delete', fn () => $c->call($s, 'customer_address.delete', $id));
step('infoDeleted', fn () => $c->call($s, 'customer_address.info', $id));
step('staleSession', fn () => $c->call(env('SOAP_STALE_SESSION'), 'customer_address.list', $customer));
step('unknownSession', fn () => $c->call(str_repeat('0', 32), 'customer_address.list', $customer));

$d = step('deniedLogin', fn () => $c->login(env('SOAP_DENIED_USER'), env('SOAP_DENIED_KEY')));
step('deniedCreate', fn () => $c->call($d, 'customer_address.create', [$customer, ['firstname' => 'X']]));
step('deniedList', fn () => $c->call($d, 'customer_address.list', $customer));

step('endSession', fn () => $c->endSession($s));
step('afterEnd', fn () => $c->call($s, 'customer_address.list', $customer));
step('endUnknown', fn () => $c->endSession('nope'));
finish();
