/**
 * SOAP faults. API faults carry the bare legacy code as `faultcode` ("102", not a QName), which is what PHP,
 * .NET and Axis clients read; protocol errors (malformed XML, unknown operation) carry the qualified
 * `SOAP-ENV:Client` / `SOAP-ENV:Server` codes a SOAP stack gives. Every fault is answered with HTTP 500.
 */
import { NS } from './names.js';

export class SoapFault extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'SoapFault';
  }
}

/** Legacy fault codes with their default texts; a detail message, when given, replaces the text. */
export const FAULTS = {
  unknown: ['0', 'Unknown Error'],
  internal: ['1', 'Internal Error. Please see log for details.'],
  accessDenied: ['2', 'Access denied.'],
  pathInvalid: ['3', 'Invalid api path.'],
  pathNotCallable: ['4', 'Resource path is not callable.'],
  sessionExpired: ['5', 'Session expired. Try to relogin.'],
  paramMissing: ['6', 'Required parameter is missing, for more details see "exception.log".'],
  dataInvalid: ['100', 'Invalid address data. Details in error message.'],
  customerNotExists: ['101', 'Customer not exists.'],
  addressNotExists: ['102', 'Address not exists.'],
  notDeleted: ['103', 'Address not deleted. Details in error message.'],
} as const satisfies Record<string, readonly [string, string]>;

export type FaultName = keyof typeof FAULTS;

export function fault(name: FaultName, detail?: string): SoapFault {
  const [code, text] = FAULTS[name];
  return new SoapFault(code, detail ?? text);
}

export const clientFault = (message: string) => new SoapFault('SOAP-ENV:Client', message);
export const serverFault = (message: string) => new SoapFault('SOAP-ENV:Server', message);

/** A value of the wrong shape for a typed part, as ext/soap reports it. */
export const encodingFault = () => clientFault('SOAP-ERROR: Encoding: Violation of encoding rules');

/** The fault envelope (no detail, no faultactor). `escape` is the caller's XML text escaper. */
export function faultEnvelope(f: SoapFault, escape: (s: string) => string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<SOAP-ENV:Envelope xmlns:SOAP-ENV="${NS.env}"><SOAP-ENV:Body><SOAP-ENV:Fault>` +
    `<faultcode>${escape(f.code)}</faultcode><faultstring>${escape(f.message)}</faultstring>` +
    `</SOAP-ENV:Fault></SOAP-ENV:Body></SOAP-ENV:Envelope>\n`
  );
}
