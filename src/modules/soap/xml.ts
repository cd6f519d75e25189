/**
 * Safe XML in and out. Requests are parsed with fast-xml-parser into a small namespace-aware tree; a message
 * carrying a DTD is refused before parsing (SOAP 1.1 forbids one), so no external entity is ever fetched
 * and no entity expands beyond the five predefined ones and character references. Replies are built as
 * strings through `esc`, which also keeps characters XML 1.0 forbids out of the output.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { clientFault } from './faults.js';

export interface XmlElement {
  /** the name as written, prefix included */
  name: string;
  local: string;
  /** the resolved namespace URI ('' when none) */
  ns: string;
  /** attribute name as written → value */
  attrs: Map<string, string>;
  children: XmlElement[];
  /** the element's own text (character data and CDATA, entity references resolved) */
  text: string;
  /** prefix → namespace URI in scope ('' for the default namespace) */
  scope: Map<string, string>;
}

/** Deeper trees are refused (no legitimate request nests this far). */
const MAX_DEPTH = 64;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // entity references are resolved below, restricted to the predefined ones and character references
  processEntities: false,
  htmlEntities: false,
  cdataPropName: '#cdata',
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_DEPTH,
});

/** Characters XML 1.0 does not allow in a document, even as character references. */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const FORBIDDEN_G = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Resolves `&amp;`-style and `&#N;` references; any other entity, or a stray `&`, is malformed input. */
function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&([^;&]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw clientFault('Bad Request');
    const named = PREDEFINED[ref];
    if (named !== undefined) return named;
    const m = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(ref);
    if (!m) throw clientFault('Bad Request');
    const cp = m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2], 10);
    if (!isXmlChar(cp)) throw clientFault('Bad Request');
    return String.fromCodePoint(cp);
  });
}

type RawNode = Record<string, unknown>;

function splitName(name: string): [prefix: string, local: string] {
  const i = name.indexOf(':');
  return i < 0 ? ['', name] : [name.slice(0, i), name.slice(i + 1)];
}

function build(node: RawNode, parentScope: Map<string, string>, depth: number): XmlElement {
  if (depth > MAX_DEPTH) throw clientFault('Bad Request');
  const name = Object.keys(node).find((k) => k !== ':@')!;
  const rawAttrs = (node[':@'] ?? {}) as Record<string, string>;
  const attrs = new Map<string, string>();
  let scope = parentScope;
  for (const [k, v] of Object.entries(rawAttrs)) {
    const value = decodeEntities(String(v));
    attrs.set(k, value);
    if (k === 'xmlns' || k.startsWith('xmlns:')) {
      if (scope === parentScope) scope = new Map(parentScope);
      scope.set(k === 'xmlns' ? '' : k.slice(6), value);
    }
  }
  const [prefix, local] = splitName(name);
  const ns = scope.get(prefix);
  if (ns === undefined && prefix !== '') throw clientFault('Bad Request');
  const el: XmlElement = { name, local, ns: ns ?? '', attrs, children: [], text: '', scope };
  for (const child of (node[name] ?? []) as RawNode[]) {
    if ('#text' in child) el.text += decodeEntities(String(child['#text']));
    else if ('#cdata' in child) el.text += ((child['#cdata'] ?? []) as RawNode[]).map((c) => String(c['#text'] ?? '')).join('');
    else el.children.push(build(child, scope, depth + 1));
  }
  return el;
}

/**
 * The document's root element. Refuses with a `SOAP-ENV:Client` fault: a DTD (XXE, entity expansion), characters
 * XML forbids, anything not well-formed, and documents without exactly one root element.
 */
export function parseXml(input: string): XmlElement {
  const xml = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw clientFault('DTD are not supported by SOAP');
  if (FORBIDDEN.test(xml) || XMLValidator.validate(xml) !== true) throw clientFault('Bad Request');
  let nodes: RawNode[];
  try {
    nodes = parser.parse(xml) as RawNode[];
  } catch {
    throw clientFault('Bad Request');
  }
  const roots = nodes.filter((n) => !('#text' in n && String(n['#text']).trim() === ''));
  if (roots.length !== 1 || '#text' in roots[0] || '#cdata' in roots[0]) throw clientFault('Bad Request');
  return build(roots[0], new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]), 1);
}

/** The first child element with this local name (namespace ignored, as legacy servers do). */
export function child(el: XmlElement, local: string): XmlElement | undefined {
  return el.children.find((c) => c.local === local);
}

/** An attribute by namespace URI and local name; `ns` '' for an unprefixed attribute. */
export function attr(el: XmlElement, ns: string, local: string): string | undefined {
  for (const [k, v] of el.attrs) {
    const [prefix, l] = splitName(k);
    if (l !== local || k === 'xmlns' || prefix === 'xmlns') continue;
    if (prefix === '' ? ns === '' : el.scope.get(prefix) === ns) return v;
  }
  return undefined;
}

/** A QName attribute value (`xsd:int`) resolved against the element's namespace scope. */
export function qname(el: XmlElement, value: string): { ns: string; local: string } {
  const [prefix, local] = splitName(value.trim());
  return { ns: el.scope.get(prefix) ?? '', local };
}

/**
 * Text escaped for element content and attribute values. Characters XML 1.0 forbids are written as the
 * literal text `&#N;` (escaped in turn), so the reply stays well-formed and the client still sees them.
 */
const NEEDS_ESCAPE = /[&<>"\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

export function esc(s: string): string {
  // most values need nothing: one test instead of three replacements
  if (!NEEDS_ESCAPE.test(s)) return s;
  return s
    .replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'))
    .replace(/\r/g, '&#13;')
    .replace(FORBIDDEN_G, (c) => `&amp;#${c.charCodeAt(0)};`);
}
