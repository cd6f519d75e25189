<?php
// WS-I scenario (document/literal): single object arguments, `result` properties, complexObjectArray lists.
declare(strict_types=1);
require __DIR__ . '/common.php';

$base = env('SOAP_BASE');
$customer = (int) env('SOAP_CUSTOMER_ID');
$c = client($base . env('SOAP_WSDL_PATH'));

$r = fn ($x) => $x->result;

step('loginWrongKey', fn () => $r($c->login(['username' => env('SOAP_USER'), 'apiKey' => 'not-the-key'])));
$s = step('login', fn () => $r($c->login(['username' => env('SOAP_USER'), 'apiKey' => env('SOAP_KEY')])));

step('listEmpty', fn () => $r($c->customerAddressList(['sessionId' => $s, 'customerId' => $customer])));
$id = step('create', fn () => $r($c->customerAddressCreate(['sessionId' => $s, 'customerId' => $customer, 'addressData' => [
    'firstname' => 'Wes',
    'lastname' => 'Eye',
    'street' => ['complexObjectArray' => ['Allee 1', 'Etage 3']],
    'city' => 'Dublin',
    'country_id' => 'IE',
    'postcode' => 'D02',
    'telephone' => '+353 1',
    'is_default_billing' => true,
    'is_default_shipping' => true,
]])));
step('createInvalid', fn () => $r($c->customerAddressCreate(['sessionId' => $s, 'customerId' => $customer, 'addressData' => ['lastname' => 'Eye']])));
step('createNoCustomer', fn () => $r($c->customerAddressCreate(['sessionId' => $s, 'customerId' => 999999, 'addressData' => ['firstname' => 'X']])));
step('info', fn () => $r($c->customerAddressInfo(['sessionId' => $s, 'addressId' => $id])));
step('list', fn () => $r($c->customerAddressList(['sessionId' => $s, 'customerId' => $customer])));
step('update', fn () => $r($c->customerAddressUpdate(['sessionId' => $s, 'addressId' => $id, 'addressData' => [
    'company' => 'Acme',
    'street' => ['complexObjectArray' => ['Quay 2']],
    'is_default_billing' => false,
]])));
step('infoAfterUpdate', fn () => $r($c->customerAddressInfo(['sessionId' => $s, 'addressId' => $id])));
step('updateMissing', fn () => $r($c->customerAddressUpdate(['sessionId' => $s, 'addressId' => 999999, 'addressData' => ['city' => 'X']])));
step('infoMissing', fn () => $r($c->customerAddressInfo(['sessionId' => $s, 'addressId' => 999999])));
step('deleteMissing', fn () => $r($c->customerAddressDelete(['sessionId' => $s, 'addressId' => 999999])));
step('delete', fn () => $r($c->customerAddressDelete(['sessionId' => $s, 'addressId' => $id])));
step('listAfterDelete', fn () => $r($c->customerAddressList(['sessionId' => $s, 'customerId' => $customer])));
$kept = step('createKept', fn () => $r($c->customerAddressCreate(['sessionId' => $s, 'customerId' => $customer, 'addressData' => [
    'firstname' => 'Wil',
    'lastname' => 'Rest',
    'street' => ['complexObjectArray' => ['Kept Quay 4']],
    'city' => 'Cork',
    'postcode' => 'T12',
    'country_id' => 'IE',
    'telephone' => '+353 21',
]])));
step('staleSession', fn () => $r($c->customerAddressList(['sessionId' => env('SOAP_STALE_SESSION'), 'customerId' => $customer])));

$d = step('deniedLogin', fn () => $r($c->login(['username' => env('SOAP_DENIED_USER'), 'apiKey' => env('SOAP_DENIED_KEY')])));
step('deniedUpdate', fn () => $r($c->customerAddressUpdate(['sessionId' => $d, 'addressId' => $kept, 'addressData' => ['city' => 'X']])));

step('endSession', fn () => $r($c->endSession(['sessionId' => $s])));
step('afterEnd', fn () => $r($c->customerAddressList(['sessionId' => $s, 'customerId' => $customer])));
finish();
