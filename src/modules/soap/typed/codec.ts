/**
 * Values of the typed interface, read and written by the declared type rather than by what the message says of
 * itself: a WS-I (literal) message carries no `xsi:type`, and a list of one item looks like a struct. Arguments
 * become the plain values the method table takes (structs as Maps in the order sent, lists, strings, integers,
 * booleans; a `double` stays its decimal text, never a binary float); results are written field by field in the
 * type's order, leaving out what the type lacks and what is unset.
 */
import { encodeValue, isRecord, parseBoolean, parseInteger, type Decoder, type SoapRecord, type SoapValue } from '../encoding.js';
import { encodingFault } from '../faults.js';
import { NS } from '../names.js';
import { attr, esc, qname, type XmlElement } from '../xml.js';
import { PRIMITIVES, type TypeDef } from './schema.js';
import { INPUT_SHAPES, OUTPUT_SHAPES } from './shapes.js';

/** `encoded`: SOAP V2 (rpc/encoded, every element typed); `literal`: WS-I (lists as repeated `complexObjectArray`). */
export type Style = 'encoded' | 'literal';

const MAX_DEPTH = 32;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Reads a part or field as its declared type. */
export class TypedDecoder {
  constructor(
    private readonly dec: Decoder,
    private readonly types: Map<string, TypeDef>,
  ) {}

  value(el: XmlElement, type: string, depth = 0): SoapValue {
    const v = this.read(el, type, depth);
    const shape = Object.hasOwn(INPUT_SHAPES, type) ? INPUT_SHAPES[type] : undefined;
    return shape && v !== null ? shape(v) : v;
  }

  private read(el: XmlElement, type: string, depth: number): SoapValue {
    if (depth > MAX_DEPTH) throw encodingFault();
    const e = this.dec.deref(el, depth);
    const nil = attr(e, NS.xsi, 'nil');
    if (nil !== undefined && parseBoolean(nil)) return null;
    if (type === 'anyType' || type === 'Array') return this.dec.value(e, depth);
    if (PRIMITIVES.has(type)) return scalar(e, type);
    const def = this.types.get(type);
    if (!def || saysGeneric(e)) return this.dec.value(e, depth);
    if (def.kind === 'list') return e.children.map((c) => this.value(c, def.item, depth + 1));
    const out: SoapRecord = new Map();
    for (const c of e.children) {
      const f = def.fields.find((x) => x.name === c.local);
      if (f) out.set(f.name, this.value(c, f.type, depth + 1));
    }
    return out;
  }
}

/** An element that declares itself a SOAP-ENC array or an Apache map: read as it says (a struct part sent as a list is the method's to refuse). */
function saysGeneric(e: XmlElement): boolean {
  if (attr(e, NS.enc, 'arrayType') !== undefined) return true;
  const t = attr(e, NS.xsi, 'type');
  if (!t) return false;
  const q = qname(e, t);
  return (q.ns === NS.enc && q.local === 'Array') || (q.ns === NS.apache && q.local === 'Map');
}

function scalar(e: XmlElement, type: string): SoapValue {
  if (e.children.length) throw encodingFault();
  const text = e.text.trim();
  if (type === 'string') return e.text;
  if (text === '') return null;
  if (type === 'int') return parseInteger(text);
  if (type === 'boolean') return parseBoolean(text);
  if (!DECIMAL.test(text)) throw encodingFault();
  return text;
}

// ---- results ----

const truthy = (v: SoapValue) => v === true || v === 1 || v === '1' || v === 'true';

/** A scalar's text as the type writes it (PHP's casts: `true` is 1, a decimal's integer part for an `int`). */
function scalarText(v: SoapValue, type: string): string {
  if (type === 'boolean') return truthy(v) ? 'true' : 'false';
  if (typeof v === 'boolean') return v ? '1' : type === 'string' ? '' : '0';
  if (Array.isArray(v)) return type === 'string' ? v.map((x) => scalarText(x, 'string')).join('\n') : String(v.length);
  if (isRecord(v) || v === null) return type === 'string' ? '' : '0';
  if (type === 'string') return String(v);
  const s = String(v).trim();
  if (type === 'int') {
    if (/^[+-]?\d+$/.test(s)) return s;
    const n = Number(s);
    return Number.isFinite(n) ? String(Math.trunc(n)) : '0';
  }
  return DECIMAL.test(s) ? s : '0';
}

/** The members of a list-typed value: a Map becomes key/value entries when the items are such pairs, else its values. */
function members(v: SoapValue, itemDef: TypeDef | undefined): SoapValue[] {
  if (Array.isArray(v)) return v;
  if (isRecord(v)) {
    const pair =
      itemDef?.kind === 'struct' && itemDef.fields.length === 2 && itemDef.fields[0].name === 'key' && itemDef.fields[1].name === 'value';
    return pair
      ? [...v].map(
          ([key, value]) =>
            new Map<string, SoapValue>([
              ['key', key],
              ['value', value],
            ]),
        )
      : [...v.values()];
  }
  return v === null ? [] : [v];
}

const xsdName = (type: string) => (type === 'Array' ? 'SOAP-ENC:Array' : `xsd:${type}`);
const qualified = (type: string) => (PRIMITIVES.has(type) ? xsdName(type) : `ns1:${type}`);

/** A struct's field with its tags written once. */
interface FieldWriter {
  name: string;
  type: string;
  /** a scalar field's opening and closing tags; undefined for any other */
  open?: string;
  close?: string;
}

/** Writes values as their declared types. */
export class TypedEncoder {
  private readonly fieldWriters = new Map<string, FieldWriter[]>();

  constructor(
    private readonly types: Map<string, TypeDef>,
    private readonly style: Style,
  ) {}

  private writers(type: string, def: { fields: { name: string; type: string }[] }): FieldWriter[] {
    let w = this.fieldWriters.get(type);
    if (!w) {
      const typed = this.style === 'encoded';
      w = def.fields.map((f) =>
        PRIMITIVES.has(f.type) && f.type !== 'anyType' && f.type !== 'Array'
          ? { ...f, open: typed ? `<${f.name} xsi:type="xsd:${f.type}">` : `<${f.name}>`, close: `</${f.name}>` }
          : f,
      );
      this.fieldWriters.set(type, w);
    }
    return w;
  }

  /** One element `name` holding `v` as `type`; an unset value is `xsi:nil`. */
  element(name: string, v: SoapValue | undefined, type: string): string {
    if (v === undefined || v === null) return `<${name} xsi:nil="true"/>`;
    const typed = this.style === 'encoded';
    if (type === 'anyType' || type === 'Array') return encodeValue(name, v);
    if (PRIMITIVES.has(type)) {
      const text = esc(scalarText(v, type));
      return typed ? `<${name} xsi:type="xsd:${type}">${text}</${name}>` : `<${name}>${text}</${name}>`;
    }
    const def = this.types.get(type);
    if (!def) return encodeValue(name, v);
    if (def.kind === 'list') {
      const list = members(v, this.types.get(def.item));
      const itemName = typed ? 'item' : 'complexObjectArray';
      const body = list.map((x) => this.element(itemName, x, def.item)).join('');
      const open = typed ? `<${name} SOAP-ENC:arrayType="${qualified(def.item)}[${list.length}]" xsi:type="ns1:${type}"` : `<${name}`;
      return body ? `${open}>${body}</${name}>` : `${open}/>`;
    }
    const shape = Object.hasOwn(OUTPUT_SHAPES, type) ? OUTPUT_SHAPES[type] : undefined;
    if (shape) v = shape(v, new Set(def.fields.map((f) => f.name)));
    let body = '';
    if (isRecord(v)) {
      for (const f of this.writers(type, def)) {
        const x = v.get(f.name);
        if (x === undefined || x === null) continue;
        body +=
          f.open !== undefined
            ? f.open + esc(typeof x === 'string' && f.type === 'string' ? x : scalarText(x, f.type)) + f.close
            : this.element(f.name, x, f.type);
      }
    }
    const open = typed ? `<${name} xsi:type="ns1:${type}"` : `<${name}`;
    return body ? `${open}>${body}</${name}>` : `${open}/>`;
  }
}
