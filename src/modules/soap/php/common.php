<?php
// Shared by the SOAP client scenarios: reads the test's settings from the environment, runs named steps and
// prints every step's outcome (its value, or its fault code and text) as one JSON document.
declare(strict_types=1);

function env(string $name): string
{
    $v = getenv($name);
    if ($v === false) {
        fwrite(STDERR, "missing environment variable $name\n");
        exit(2);
    }
    return $v;
}

function client(string $wsdl): SoapClient
{
    return new SoapClient($wsdl, [
        'trace' => 1,
        'cache_wsdl' => WSDL_CACHE_NONE,
        'features' => SOAP_SINGLE_ELEMENT_ARRAYS,
        'exceptions' => true,
        'connection_timeout' => 10,
    ]);
}

$results = [];

/** Runs one step; a SoapFault is recorded as ['fault' => [code, text]]. */
function step(string $name, callable $fn)
{
    global $results;
    try {
        $value = $fn();
        $results[$name] = ['ok' => $value];
        return $value;
    } catch (SoapFault $e) {
        $results[$name] = ['fault' => [(string) $e->faultcode, $e->getMessage()]];
        return null;
    }
}

/** Objects as arrays, WS-I lists (`complexObjectArray`) as plain lists. */
function plain($x)
{
    if (is_object($x)) {
        $vars = get_object_vars($x);
        if (array_keys($vars) === ['complexObjectArray']) {
            return array_map('plain', (array) $vars['complexObjectArray']);
        }
        return $vars === [] ? [] : array_map('plain', $vars);
    }
    return is_array($x) ? array_map('plain', $x) : $x;
}

/**
 * The typed interface in the style SOAP_STYLE names (`v2` or `wsi`), from the WSDL at SOAP_WSDL_PATH:
 * [client, whether WS-I, a list argument as the style sends it, a call with its parts by name (positional in V2,
 * one request object in WS-I) answering plain values, a login].
 */
function typedClient(): array
{
    $wsi = env('SOAP_STYLE') === 'wsi';
    $c = client(env('SOAP_BASE') . env('SOAP_WSDL_PATH'));
    $list = fn (array $items) => $wsi ? ['complexObjectArray' => $items] : $items;
    $call = fn (string $op, array $parts) => $wsi
        ? plain($c->$op($parts)->result ?? null)
        : plain($c->$op(...array_values($parts)));
    $login = fn (string $user, string $key) => $wsi
        ? $c->login(['username' => $user, 'apiKey' => $key])->result
        : $c->login($user, $key);
    return [$c, $wsi, $list, $call, $login];
}

function finish(): void
{
    global $results;
    echo json_encode($results, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
}
