/**
 * SOAP 1.1 section 5 encoding (rpc/encoded, used by V1 and V2): decoding values typed with `xsi:type` (scalars,
 * SOAP-ENC arrays with any member name, Apache maps, structs, `xsi:nil`, `href` multi-references as Axis and
 * .NET emit them) and encoding the dynamic V1 results.
 */
import { encodingFault } from './faults.js';
import { NS } from './names.js';
import { attr, esc, qname, type XmlElement } from './xml.js';

export type SoapValue = null | string | number | boolean | SoapValue[] | SoapRecord;
/** A struct or associative array; a Map so that keys such as `__proto__` stay plain data. */
export type SoapRecord = Map<string, SoapValue>;

export const isRecord = (v: SoapValue | undefined): v is SoapRecord => v instanceof Map;

const INT_TYPES = new Set([
  'int',
  'integer',
  'long',
  'short',
  'byte',
  'unsignedInt',
  'unsignedLong',
  'unsignedShort',
  'unsignedByte',
  'nonNegativeInteger',
  'positiveInteger',
  'negativeInteger',
  'nonPositiveInteger',
]);
const FLOAT_TYPES = new Set(['double', 'float', 'decimal']);
/** Members of a list that repeat one name; a single member named so is still a list. */
const LIST_MEMBERS = new Set(['item', 'complexObjectArray']);
const MAX_DEPTH = 32;
/** xsd/SOAP-ENC types that say nothing about the shape: the content decides. */
const CONTAINER_TYPES = new Set(['Struct', 'anyType', 'ur-type']);

/** `true`/`false`/`1`/`0` (xsd:boolean lexical forms); anything else is a fault. */
export function parseBoolean(s: string): boolean {
  const t = s.trim();
  if (t === 'true' || t === '1') return true;
  if (t === 'false' || t === '0') return false;
  throw encodingFault();
}

export function parseInteger(s: string): number {
  const t = s.trim();
  if (!/^[+-]?\d{1,18}$/.test(t)) throw encodingFault();
  return Number(t);
}

/** The elements a message's `href="#id"` references can point at: every element with an `id`. */
export function collectRefs(root: XmlElement): Map<string, XmlElement> {
  const refs = new Map<string, XmlElement>();
  const walk = (el: XmlElement) => {
    const id = attr(el, '', 'id');
    if (id !== undefined && !refs.has(id)) refs.set(id, el);
    el.children.forEach(walk);
  };
  walk(root);
  return refs;
}

export class Decoder {
  constructor(private readonly refs: Map<string, XmlElement>) {}

  /** Follows `href="#id"` to the element holding the value. */
  deref(el: XmlElement, depth = 0): XmlElement {
    let cur = el;
    for (let hops = 0; ; hops++) {
      const href = attr(cur, '', 'href');
      if (href === undefined) return cur;
      const next = href.startsWith('#') ? this.refs.get(href.slice(1)) : undefined;
      if (!next || hops + depth > MAX_DEPTH) throw encodingFault();
      cur = next;
    }
  }

  /** The element's value, shaped by its `xsi:type` or, without one, by its content. */
  value(el: XmlElement, depth = 0): SoapValue {
    if (depth > MAX_DEPTH) throw encodingFault();
    const e = this.deref(el, depth);
    const nil = attr(e, NS.xsi, 'nil');
    if (nil !== undefined && parseBoolean(nil)) return null;
    const typeAttr = attr(e, NS.xsi, 'type');
    const type = typeAttr ? qname(e, typeAttr) : undefined;
    if (type && type.ns === NS.apache && type.local === 'Map') return this.map(e, depth);
    if ((type && type.ns === NS.enc && type.local === 'Array') || attr(e, NS.enc, 'arrayType') !== undefined) {
      return e.children.map((c) => this.value(c, depth + 1));
    }
    if (type && (type.ns === NS.xsd || type.ns === NS.enc) && !CONTAINER_TYPES.has(type.local)) {
      if (e.children.length) throw encodingFault();
      if (INT_TYPES.has(type.local)) return parseInteger(e.text);
      if (FLOAT_TYPES.has(type.local)) {
        const n = Number(e.text.trim());
        if (e.text.trim() === '' || !Number.isFinite(n)) throw encodingFault();
        return n;
      }
      if (type.local === 'boolean') return parseBoolean(e.text);
      return e.text;
    }
    return this.untyped(e, depth);
  }

  /** Apache map: `<item><key/><value/></item>` entries. */
  private map(e: XmlElement, depth: number): SoapRecord {
    const out: SoapRecord = new Map();
    for (const item of e.children) {
      const k = item.children.find((c) => c.local === 'key');
      const v = item.children.find((c) => c.local === 'value');
      if (!k) throw encodingFault();
      const key = this.value(k, depth + 1);
      if (key === null || typeof key === 'object') throw encodingFault();
      out.set(String(key), v ? this.value(v, depth + 1) : null);
    }
    return out;
  }

  /** A struct (children by name), a list (repeated member name) or, without children, text. */
  private untyped(e: XmlElement, depth: number): SoapValue {
    const kids = e.children;
    if (!kids.length) return e.text;
    const same = kids.every((c) => c.local === kids[0].local);
    if (same && kids[0].local === 'item' && kids.every((c) => c.children.some((k) => k.local === 'key'))) return this.map(e, depth);
    if (same && (kids.length > 1 || LIST_MEMBERS.has(kids[0].local))) return kids.map((c) => this.value(c, depth + 1));
    const out: SoapRecord = new Map();
    for (const c of kids) out.set(c.local, this.value(c, depth + 1));
    return out;
  }
}

// ---- V1 results ----

function arrayType(items: SoapValue[]): string {
  if (!items.length) return 'xsd:ur-type[0]';
  const kinds = new Set(
    items.map((v) =>
      v === null
        ? 'null'
        : isRecord(v)
          ? 'ns2:Map'
          : Array.isArray(v)
            ? 'SOAP-ENC:Array'
            : typeof v === 'boolean'
              ? 'xsd:boolean'
              : typeof v === 'number'
                ? 'xsd:int'
                : 'xsd:string',
    ),
  );
  const t = kinds.size === 1 ? [...kinds][0] : 'xsd:ur-type';
  return `${t === 'null' ? 'xsd:ur-type' : t}[${items.length}]`;
}

/** One element carrying a dynamic value, typed with `xsi:type` (V1 `callReturn` and its members). */
export function encodeValue(name: string, v: SoapValue | undefined): string {
  if (v === null || v === undefined) return `<${name} xsi:nil="true"/>`;
  if (typeof v === 'boolean') return `<${name} xsi:type="xsd:boolean">${v}</${name}>`;
  if (typeof v === 'number') {
    const t = Number.isInteger(v) ? 'xsd:int' : 'xsd:double';
    return `<${name} xsi:type="${t}">${v}</${name}>`;
  }
  if (typeof v === 'string') return `<${name} xsi:type="xsd:string">${esc(v)}</${name}>`;
  if (Array.isArray(v)) {
    const open = `<${name} SOAP-ENC:arrayType="${arrayType(v)}" xsi:type="SOAP-ENC:Array"`;
    return v.length ? `${open}>${v.map((x) => encodeValue('item', x)).join('')}</${name}>` : `${open}/>`;
  }
  let out = `<${name} xsi:type="ns2:Map">`;
  for (const [k, x] of v) out += `<item>${encodeValue('key', k)}${encodeValue('value', x)}</item>`;
  return `${out}</${name}>`;
}

/** A V1 record from plain fields, in their order. */
export function record(fields: Record<string, SoapValue>): SoapRecord {
  return new Map(Object.entries(fields));
}
