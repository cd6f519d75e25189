/**
 * The three WSDL documents (V1 rpc/encoded, V2 rpc/encoded, WS-I document/literal). Everything but the
 * `soap:address` is fixed, so each document is assembled once; the address is the URL the client used.
 */
import { serves } from './handler.js';
import { NAMES, NS } from './names.js';
import { V2_INTERFACE, WSI_INTERFACE, type InterfaceOperation } from './typed/interface.js';
import { PRIMITIVES, typesUsed, V2_OPS, V2_TYPES, WSI_OPS, WSI_TYPES, type Field, type Part, type TypedOperation } from './typed/schema.js';
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
function rpcDocument(
  handler: string,
  types: string,
  ops: Record<string, [[string, string][], [string, string][]]>,
  messageNames: Record<string, string> | 'operation',
): string {
  let messages = '';
  let portOps = '';
  let bindingOps = '';
  for (const [op, [input, output]] of Object.entries(ops)) {
    const inName = messageNames === 'operation' ? op : (messageNames[op] ?? `${op}Request`);
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
  'operation',
);

/** The typed operations this server serves (the method table's), with the interface's own first. */
function typedOperations(ifaces: Iterable<InterfaceOperation>, ops: Map<string, TypedOperation>): (TypedOperation | InterfaceOperation)[] {
  return [...ifaces, ...[...ops.values()].filter((op) => serves(op.path))];
}

const v2Field = (f: Field) => `<element name="${f.name}" type="${qualifiedType(f.type)}"${f.required ? '' : ' minOccurs="0"'}/>`;
const wsiField = (f: Field) => `<xsd:element name="${f.name}" type="${qualifiedType(f.type)}" minOccurs="${f.required ? 1 : 0}"/>`;

function qualifiedType(type: string): string {
  if (type === 'Array') return 'soapenc:Array';
  return PRIMITIVES.has(type) ? `xsd:${type}` : `typens:${type}`;
}

function v2Types(names: string[]): string {
  let out = schemaOpen;
  for (const name of names) {
    const def = V2_TYPES.get(name)!;
    out +=
      def.kind === 'list'
        ? encArray(name, qualifiedType(def.item))
        : `      <complexType name="${name}"><all>${def.fields.map(v2Field).join('')}</all></complexType>\n`;
  }
  return out + schemaClose;
}

function v2Document(): string {
  const ops = typedOperations(V2_INTERFACE.values(), V2_OPS);
  const session: [string, string] = ['sessionId', 'xsd:string'];
  const table: Record<string, [[string, string][], [string, string][]]> = {};
  for (const op of ops) {
    const input = op.params.map((p): [string, string] => [p.name, qualifiedType(p.type)]);
    table[op.name] = ['method' in op ? input : [session, ...input], [[op.result.name, qualifiedType(op.result.type)]]];
  }
  const roots = ops.flatMap((op) => [...op.params.map((p) => p.type), op.result.type]);
  const messages = Object.fromEntries(ops.filter((op) => 'method' in op).map((op) => [op.name, (op as InterfaceOperation).message]));
  return rpcDocument(NAMES.handlers.v2, v2Types(typesUsed(V2_TYPES, roots)), table, messages);
}

function wsiDocument(): string {
  const handler = NAMES.handlers.wsi;
  const ops = typedOperations(WSI_INTERFACE.values(), WSI_OPS);
  const roots = ops.flatMap((op) => [...op.params.map((p) => p.type), op.result.type]);
  let types = `  <wsdl:types>\n    <xsd:schema targetNamespace="${NAMES.namespace}">\n`;
  for (const name of typesUsed(WSI_TYPES, roots)) {
    const def = WSI_TYPES.get(name)!;
    const body =
      def.kind === 'list'
        ? `<xsd:element minOccurs="0" maxOccurs="unbounded" name="complexObjectArray" type="${qualifiedType(def.item)}"/>`
        : def.fields.map(wsiField).join('');
    types += `      <xsd:complexType name="${name}"><xsd:sequence>${body}</xsd:sequence></xsd:complexType>\n`;
  }
  const child = (p: Part) =>
    `<xsd:element minOccurs="${p.optional ? 0 : 1}" maxOccurs="1" name="${p.name}" type="${qualifiedType(p.type)}"/>`;
  const session: Part = { name: 'sessionId', type: 'string', optional: false };
  let messages = '';
  let portOps = '';
  let bindingOps = '';
  const body = '<soap:body use="literal"/>';
  for (const op of ops) {
    const params = 'method' in op ? op.params : [session, ...op.params];
    types += `      <xsd:element name="${op.request}"><xsd:complexType><xsd:sequence>${params.map(child).join('')}</xsd:sequence></xsd:complexType></xsd:element>\n`;
    types += `      <xsd:element name="${op.response}"><xsd:complexType><xsd:sequence>${child(op.result)}</xsd:sequence></xsd:complexType></xsd:element>\n`;
    const inName = `${op.name}Request`;
    messages += `  <wsdl:message name="${inName}"><wsdl:part name="parameters" element="typens:${op.request}"/></wsdl:message>\n`;
    messages += `  <wsdl:message name="${op.name}Response"><wsdl:part name="parameters" element="typens:${op.response}"/></wsdl:message>\n`;
    portOps += `    <wsdl:operation name="${op.name}"><wsdl:input message="typens:${inName}"/><wsdl:output message="typens:${op.name}Response"/></wsdl:operation>\n`;
    bindingOps += `    <wsdl:operation name="${op.name}"><soap:operation soapAction=""/><wsdl:input>${body}</wsdl:input><wsdl:output>${body}</wsdl:output></wsdl:operation>\n`;
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

export type WsdlKind = 'v1' | 'v2' | 'wsi';

let documents: Record<WsdlKind, string> | undefined;

/** The document with its service address set to `location` (the URL the client asked for, minus `wsdl`). */
export function wsdl(kind: WsdlKind, location: string): string {
  documents ??= { v1: V1, v2: v2Document(), wsi: wsiDocument() };
  return documents[kind].replace(LOCATION, () => esc(location));
}
