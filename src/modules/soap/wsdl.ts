/**
 * The three WSDL documents (V1 rpc/encoded, V2 rpc/encoded, WS-I document/literal). Everything but the
 * `soap:address` is fixed, so each document is assembled once; the address is the URL the client used.
 */
import { NAMES, NS } from './names.js';
import { esc } from './xml.js';

const ENC_BODY = `<soap:body namespace="${NAMES.namespace}" use="encoded" encodingStyle="${NS.enc}"/>`;
const LOCATION = '@@LOCATION@@';

function header(extra = ''): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<definitions xmlns:typens="${NAMES.namespace}" xmlns:xsd="${NS.xsd}" xmlns:soap="${NS.wsdlSoap}" ` +
    `xmlns:soapenc="${NS.enc}" xmlns:wsdl="${NS.wsdl}" xmlns="${NS.wsdl}"${extra} name="${NAMES.definitions}" targetNamespace="${NAMES.namespace}">\n`
  );
}

function service(handler: string): string {
  return (
    `  <service name="${NAMES.service}">\n` +
    `    <port name="${handler}Port" binding="typens:${handler}Binding">\n` +
    `      <soap:address location="${LOCATION}"/>\n` +
    `    </port>\n  </service>\n`
  );
}

/**
 * rpc/encoded messages, port type and binding from `name → [input parts, output parts]`. V1 names each input
 * message as its operation, V2 as `<operation>Request`.
 */
function rpcDocument(handler: string, types: string, ops: Record<string, [[string, string][], [string, string][]]>, v1 = false): string {
  let messages = '';
  let portOps = '';
  let bindingOps = '';
  for (const [op, [input, output]] of Object.entries(ops)) {
    const inName = v1 || op === 'login' || op === 'endSession' || op === 'call' || op === 'multiCall' ? op : `${op}Request`;
    const part = ([n, t]: [string, string]) => `    <part name="${n}" type="${t}"/>\n`;
    messages += `  <message name="${inName}">\n${input.map(part).join('')}  </message>\n`;
    messages += `  <message name="${op}Response">\n${output.map(part).join('')}  </message>\n`;
    portOps += `    <operation name="${op}">\n      <input message="typens:${inName}"/>\n      <output message="typens:${op}Response"/>\n    </operation>\n`;
    bindingOps +=
      `    <operation name="${op}">\n      <soap:operation soapAction="urn:${handler}Action"/>\n` +
      `      <input>${ENC_BODY}</input>\n      <output>${ENC_BODY}</output>\n    </operation>\n`;
  }
  return (
    header() +
    types +
    messages +
    `  <portType name="${handler}PortType">\n${portOps}  </portType>\n` +
    `  <binding name="${handler}Binding" type="typens:${handler}PortType">\n` +
    `    <soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>\n${bindingOps}  </binding>\n` +
    service(handler) +
    `</definitions>\n`
  );
}

const encArray = (name: string, itemType: string) =>
  `      <complexType name="${name}"><complexContent><restriction base="soapenc:Array">` +
  `<attribute ref="soapenc:arrayType" wsdl:arrayType="${itemType}[]"/></restriction></complexContent></complexType>\n`;

const schemaOpen = `  <types>\n    <schema xmlns="${NS.xsd}" targetNamespace="${NAMES.namespace}">\n      <import namespace="${NS.enc}"/>\n`;
const schemaClose = `    </schema>\n  </types>\n`;

const V1 = rpcDocument(
  NAMES.handlers.v1,
  schemaOpen + encArray('FixedArray', 'xsd:anyType') + schemaClose,
  {
    login: [
      [
        ['username', 'xsd:string'],
        ['apiKey', 'xsd:string'],
      ],
      [['loginReturn', 'xsd:string']],
    ],
    endSession: [[['sessionId', 'xsd:string']], [['endSessionReturn', 'xsd:boolean']]],
    call: [
      [
        ['sessionId', 'xsd:string'],
        ['resourcePath', 'xsd:string'],
        ['args', 'xsd:anyType'],
      ],
      [['callReturn', 'xsd:anyType']],
    ],
    multiCall: [
      [
        ['sessionId', 'xsd:string'],
        ['calls', 'typens:FixedArray'],
        ['options', 'xsd:anyType'],
      ],
      [['multiCallReturn', 'typens:FixedArray']],
    ],
    resources: [[['sessionId', 'xsd:string']], [['resourcesReturn', 'typens:FixedArray']]],
    globalFaults: [[['sessionId', 'xsd:string']], [['globalFaultsReturn', 'typens:FixedArray']]],
    // the parts in this order, as Magento's document has them: a client's first argument (the session) is sent
    // as `resourceName`, and read back by position
    resourceFaults: [
      [
        ['resourceName', 'xsd:string'],
        ['sessionId', 'xsd:string'],
      ],
      [['resourceFaultsReturn', 'typens:FixedArray']],
    ],
    startSession: [[], [['startSessionReturn', 'xsd:string']]],
  },
  true,
);

/** Address input fields (`customerAddressEntityCreate`) in WSDL order; street is a list of lines. */
const CREATE_FIELDS: [string, string][] = [
  ['city', 'xsd:string'],
  ['company', 'xsd:string'],
  ['country_id', 'xsd:string'],
  ['fax', 'xsd:string'],
  ['firstname', 'xsd:string'],
  ['lastname', 'xsd:string'],
  ['middlename', 'xsd:string'],
  ['postcode', 'xsd:string'],
  ['prefix', 'xsd:string'],
  ['region_id', 'xsd:int'],
  ['region', 'xsd:string'],
  ['street', 'typens:ArrayOfString'],
  ['suffix', 'xsd:string'],
  ['telephone', 'xsd:string'],
  ['is_default_billing', 'xsd:boolean'],
  ['is_default_shipping', 'xsd:boolean'],
];

const ITEM_FIELDS: [string, string][] = [
  ['customer_address_id', 'xsd:int'],
  ['created_at', 'xsd:string'],
  ['updated_at', 'xsd:string'],
  ['increment_id', 'xsd:string'],
  ['city', 'xsd:string'],
  ['company', 'xsd:string'],
  ['country_id', 'xsd:string'],
  ['fax', 'xsd:string'],
  ['firstname', 'xsd:string'],
  ['lastname', 'xsd:string'],
  ['middlename', 'xsd:string'],
  ['postcode', 'xsd:string'],
  ['prefix', 'xsd:string'],
  ['region', 'xsd:string'],
  ['region_id', 'xsd:int'],
  ['street', 'xsd:string'],
  ['suffix', 'xsd:string'],
  ['telephone', 'xsd:string'],
  ['is_default_billing', 'xsd:boolean'],
  ['is_default_shipping', 'xsd:boolean'],
];

const fields = (list: [string, string][], p = '') => list.map(([n, t]) => `<${p}element name="${n}" type="${t}" minOccurs="0"/>`).join('');

const V2 = rpcDocument(
  NAMES.handlers.v2,
  schemaOpen +
    encArray('ArrayOfString', 'xsd:string') +
    `      <complexType name="customerAddressEntityCreate"><all>${fields(CREATE_FIELDS)}</all></complexType>\n` +
    `      <complexType name="customerAddressEntityItem"><all>${fields(ITEM_FIELDS)}</all></complexType>\n` +
    encArray('customerAddressEntityArray', 'typens:customerAddressEntityItem') +
    schemaClose,
  {
    login: [
      [
        ['username', 'xsd:string'],
        ['apiKey', 'xsd:string'],
      ],
      [['loginReturn', 'xsd:string']],
    ],
    endSession: [[['sessionId', 'xsd:string']], [['endSessionReturn', 'xsd:boolean']]],
    customerAddressList: [
      [
        ['sessionId', 'xsd:string'],
        ['customerId', 'xsd:int'],
      ],
      [['result', 'typens:customerAddressEntityArray']],
    ],
    customerAddressCreate: [
      [
        ['sessionId', 'xsd:string'],
        ['customerId', 'xsd:int'],
        ['addressData', 'typens:customerAddressEntityCreate'],
      ],
      [['result', 'xsd:int']],
    ],
    customerAddressInfo: [
      [
        ['sessionId', 'xsd:string'],
        ['addressId', 'xsd:int'],
      ],
      [['info', 'typens:customerAddressEntityItem']],
    ],
    customerAddressUpdate: [
      [
        ['sessionId', 'xsd:string'],
        ['addressId', 'xsd:int'],
        ['addressData', 'typens:customerAddressEntityCreate'],
      ],
      [['info', 'xsd:boolean']],
    ],
    customerAddressDelete: [
      [
        ['sessionId', 'xsd:string'],
        ['addressId', 'xsd:int'],
      ],
      [['info', 'xsd:boolean']],
    ],
  },
);

/** WS-I: operation → [request element, its children], [response element, type of its `result`]. */
const WSI_OPERATIONS: Record<string, { req: [string, [string, string][]]; res: [string, string] }> = {
  login: {
    req: [
      'loginParam',
      [
        ['username', 'xsd:string'],
        ['apiKey', 'xsd:string'],
      ],
    ],
    res: ['loginResponseParam', 'xsd:string'],
  },
  endSession: { req: ['endSessionParam', [['sessionId', 'xsd:string']]], res: ['endSessionResponseParam', 'xsd:boolean'] },
  customerAddressList: {
    req: [
      'customerAddressListRequestParam',
      [
        ['sessionId', 'xsd:string'],
        ['customerId', 'xsd:int'],
      ],
    ],
    res: ['customerAddressListResponseParam', 'typens:customerAddressEntityArray'],
  },
  customerAddressCreate: {
    req: [
      'customerAddressCreateRequestParam',
      [
        ['sessionId', 'xsd:string'],
        ['customerId', 'xsd:int'],
        ['addressData', 'typens:customerAddressEntityCreate'],
      ],
    ],
    res: ['customerAddressCreateResponseParam', 'xsd:int'],
  },
  customerAddressInfo: {
    req: [
      'customerAddressInfoRequestParam',
      [
        ['sessionId', 'xsd:string'],
        ['addressId', 'xsd:int'],
      ],
    ],
    res: ['customerAddressInfoResponseParam', 'typens:customerAddressEntityItem'],
  },
  customerAddressUpdate: {
    req: [
      'customerAddressUpdateRequestParam',
      [
        ['sessionId', 'xsd:string'],
        ['addressId', 'xsd:int'],
        ['addressData', 'typens:customerAddressEntityCreate'],
      ],
    ],
    res: ['customerAddressUpdateResponseParam', 'xsd:boolean'],
  },
  customerAddressDelete: {
    req: [
      'customerAddressDeleteRequestParam',
      [
        ['sessionId', 'xsd:string'],
        ['addressId', 'xsd:int'],
      ],
    ],
    res: ['customerAddressDeleteResponseParam', 'xsd:boolean'],
  },
};

function wsiDocument(): string {
  const handler = NAMES.handlers.wsi;
  const seq = (list: [string, string][]) => list.map(([n, t]) => `<xsd:element name="${n}" type="${t}" minOccurs="0"/>`).join('');
  const listOf = (name: string, type: string) =>
    `      <xsd:complexType name="${name}"><xsd:sequence><xsd:element minOccurs="0" maxOccurs="unbounded" name="complexObjectArray" type="${type}"/></xsd:sequence></xsd:complexType>\n`;
  let types =
    `  <wsdl:types>\n    <xsd:schema targetNamespace="${NAMES.namespace}">\n` +
    listOf('ArrayOfString', 'xsd:string') +
    `      <xsd:complexType name="customerAddressEntityCreate"><xsd:sequence>${seq(CREATE_FIELDS)}</xsd:sequence></xsd:complexType>\n` +
    `      <xsd:complexType name="customerAddressEntityItem"><xsd:sequence>${seq(ITEM_FIELDS)}</xsd:sequence></xsd:complexType>\n` +
    listOf('customerAddressEntityArray', 'typens:customerAddressEntityItem');
  const one = (n: string, t: string) => `<xsd:element minOccurs="1" maxOccurs="1" name="${n}" type="${t}"/>`;
  let messages = '';
  let portOps = '';
  let bindingOps = '';
  const body = '<soap:body use="literal"/>';
  for (const [op, { req, res }] of Object.entries(WSI_OPERATIONS)) {
    types += `      <xsd:element name="${req[0]}"><xsd:complexType><xsd:sequence>${req[1].map(([n, t]) => one(n, t)).join('')}</xsd:sequence></xsd:complexType></xsd:element>\n`;
    types += `      <xsd:element name="${res[0]}"><xsd:complexType><xsd:sequence>${one('result', res[1])}</xsd:sequence></xsd:complexType></xsd:element>\n`;
    const inName = `${op}Request`;
    messages += `  <wsdl:message name="${inName}"><wsdl:part name="parameters" element="typens:${req[0]}"/></wsdl:message>\n`;
    messages += `  <wsdl:message name="${op}Response"><wsdl:part name="parameters" element="typens:${res[0]}"/></wsdl:message>\n`;
    portOps += `    <wsdl:operation name="${op}"><wsdl:input message="typens:${inName}"/><wsdl:output message="typens:${op}Response"/></wsdl:operation>\n`;
    bindingOps += `    <wsdl:operation name="${op}"><soap:operation soapAction=""/><wsdl:input>${body}</wsdl:input><wsdl:output>${body}</wsdl:output></wsdl:operation>\n`;
  }
  types += `    </xsd:schema>\n  </wsdl:types>\n`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<wsdl:definitions xmlns:typens="${NAMES.namespace}" xmlns:xsd="${NS.xsd}" xmlns:soap="${NS.wsdlSoap}" xmlns:wsdl="${NS.wsdl}" ` +
    `name="${NAMES.definitions}" targetNamespace="${NAMES.namespace}">\n` +
    types +
    messages +
    `  <wsdl:portType name="${handler}PortType">\n${portOps}  </wsdl:portType>\n` +
    `  <wsdl:binding name="${handler}Binding" type="typens:${handler}PortType">\n` +
    `    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>\n${bindingOps}  </wsdl:binding>\n` +
    `  <wsdl:service name="${NAMES.service}">\n    <wsdl:port name="${handler}Port" binding="typens:${handler}Binding">\n` +
    `      <soap:address location="${LOCATION}"/>\n    </wsdl:port>\n  </wsdl:service>\n` +
    `</wsdl:definitions>\n`
  );
}

const WSI = wsiDocument();

export type WsdlKind = 'v1' | 'v2' | 'wsi';

const DOCUMENTS: Record<WsdlKind, string> = { v1: V1, v2: V2, wsi: WSI };

/** The document with its service address set to `location` (the URL the client asked for, minus `wsdl`). */
export function wsdl(kind: WsdlKind, location: string): string {
  return DOCUMENTS[kind].replace(LOCATION, () => esc(location));
}
