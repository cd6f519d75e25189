<?php
// V2 scenario (rpc/encoded, typed by the WSDL): every customerAddress operation and fault, sessions.
declare(strict_types=1);
require __DIR__ . '/common.php';

$base = env('SOAP_BASE');
$customer = (int) env('SOAP_CUSTOMER_ID');
$c = client($base . env('SOAP_WSDL_PATH'));

step('loginWrongKey', fn () => $c->login(env('SOAP_USER'), 'not-the-key'));
$s = step('login', fn () => $c->login(env('SOAP_USER'), env('SOAP_KEY')));

step('listEmpty', fn () => $c->customerAddressList($s, $customer));
$id = step('create', fn () => $c->customerAddressCreate($s, $customer, [
    'firstname' => 'Bea',
    'lastname' => 'Vee',
    'street' => ['Ring 7', 'Hinterhaus'],
    'city' => 'Berlin',
    'postcode' => '10117',
    'country_id' => 'DE',
    'region_id' => 82,
    'telephone' => '030 2',
    'is_default_shipping' => true,
]));
step('createInvalid', fn () => $c->customerAddressCreate($s, $customer, ['firstname' => 'Bea', 'country_id' => 'DE']));
step('createNoCustomer', fn () => $c->customerAddressCreate($s, 999999, ['firstname' => 'X']));
step('listNoCustomer', fn () => $c->customerAddressList($s, 999999));
step('info', fn () => $c->customerAddressInfo($s, $id));
step('list', fn () => $c->customerAddressList($s, $customer));
step('update', fn () => $c->customerAddressUpdate($s, $id, [
    'city' => 'Potsdam',
    'street' => ['Neuer Markt 1'],
    'is_default_billing' => true,
    'is_default_shipping' => false,
]));
step('infoAfterUpdate', fn () => $c->customerAddressInfo($s, $id));
step('updateInvalid', fn () => $c->customerAddressUpdate($s, $id, ['telephone' => '']));
step('updateMissing', fn () => $c->customerAddressUpdate($s, 999999, ['city' => 'X']));
step('infoMissing', fn () => $c->customerAddressInfo($s, 999999));
step('deleteMissing', fn () => $c->customerAddressDelete($s, 999999));
$kept = step('createKept', fn () => $c->customerAddressCreate($s, $customer, [
    'firstname' => 'Vic',
    'lastname' => 'Rest',
    'street' => ['Kept Way 9'],
    'city' => 'Bremen',
    'postcode' => '28195',
    'country_id' => 'DE',
    'region_id' => 84,
    'telephone' => '0421 1',
]));
step('delete', fn () => $c->customerAddressDelete($s, $id));
step('infoDeleted', fn () => $c->customerAddressInfo($s, $id));
step('staleSession', fn () => $c->customerAddressList(env('SOAP_STALE_SESSION'), $customer));

$d = step('deniedLogin', fn () => $c->login(env('SOAP_DENIED_USER'), env('SOAP_DENIED_KEY')));
step('deniedDelete', fn () => $c->customerAddressDelete($d, $kept));
step('deniedInfo', fn () => $c->customerAddressInfo($d, $kept));

step('endSession', fn () => $c->endSession($s));
step('afterEnd', fn () => $c->customerAddressList($s, $customer));
finish();
