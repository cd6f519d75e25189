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

function finish(): void
{
    global $results;
    echo json_encode($results, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
}
