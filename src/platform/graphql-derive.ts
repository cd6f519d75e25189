/**
 * The GraphQL adapter of the operation declarations, in API Platform's shape: each short name is a type whose
 * fields are those of the REST item schema (`id` the IRI, `_id` the number, objects and arrays the `Iterable`
 * JSON scalar); an item read is a query taking the IRI, a collection a Relay connection, every other operation a
 * mutation taking `input: {..., clientMutationId}` and answering `{ <type> clientMutationId }`. The resolvers
 * (graphql-runtime.ts) enforce the declared access rule and call the declaration's `run`, as the REST route does.
 */
import type { IResolvers } from 'mercurius';
import { Type, type TObject, type TSchema } from 'typebox';
import type { GraphqlContribution } from './graphql.js';
import { pure } from './graphql-answers.js';
import { connectionResolver, idOfIri, itemResolver, mutationResolver, type FieldShape, type TypeInfo } from './graphql-runtime.js';
import { kindOf, type GraphqlAlias, type Operation } from './operations.js';

export { idOfIri } from './graphql-runtime.js';

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
/** the schema keyword that names a GraphQL scalar other than the JSON type's (see GraphqlId) */
const GRAPHQL_TYPE = 'x-graphql-type';

/**
 * A GraphQL argument of type ID (an IRI, or a bare number): for `graphql.args` only, which are never handed to
 * the REST validator (its unknown keyword would be refused there); `graphql.input` maps it to the REST id.
 */
export function GraphqlId(options: { description?: string } = {}): TSchema {
  return Type.String({ ...options, [GRAPHQL_TYPE]: 'ID' });
}

/**
 * Names the GraphQL object type of an object schema nested in a response (a cart's or an order's address is an
 * `Address`, as in Maho): the field gets that type instead of `Iterable`, and the type gains the object's fields
 * (those not every use has are nullable). OpenAPI shows the name as the extension `x-graphql-type`.
 */
export function GraphqlType<T extends TObject>(name: string, schema: T): T {
  return { ...schema, [GRAPHQL_TYPE]: name };
}
const INT_MAX = 2_147_483_647;

type Js = Record<string, any>;

export const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
export const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** English plural of a short name, as API Platform's inflector makes it (Category → Categories, Address → Addresses). */
export function plural(name: string): string {
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(name)) return `${name}es`;
  return `${name}s`;
}

function nullableInner(s: Js): Js | undefined {
  const branches: Js[] | undefined = s.anyOf ?? s.oneOf;
  if (branches) {
    const rest = branches.filter((b) => b.type !== 'null');
    if (rest.length === 1 && rest.length < branches.length) return rest[0];
  }
  if (Array.isArray(s.type) && s.type.includes('null')) {
    const rest = s.type.filter((t: string) => t !== 'null');
    if (rest.length === 1) return { ...s, type: rest[0] };
  }
  return undefined;
}

function isNullable(s: Js): boolean {
  return nullableInner(s) !== undefined || s.type === 'null';
}

/** A scalar GraphQL type name of a JSON schema, or undefined when it is an object, an array or a mix. */
function scalarOf(s: Js): string | undefined {
  const inner = nullableInner(s) ?? s;
  if (inner[GRAPHQL_TYPE]) return inner[GRAPHQL_TYPE];
  const branches: Js[] | undefined = inner.anyOf ?? inner.oneOf;
  if (branches) {
    const types = new Set(branches.map((b) => scalarOf(b)));
    return types.size === 1 ? [...types][0] : undefined;
  }
  switch (inner.type) {
    case 'integer':
      // GraphQL's Int is 32-bit: a wider integer is a Float
      return inner.maximum !== undefined && inner.maximum > INT_MAX ? 'Float' : 'Int';
    case 'number':
      return 'Float';
    case 'string':
      return 'String';
    case 'boolean':
      return 'Boolean';
    default:
      return undefined;
  }
}

/** The GraphQL type of a property: a scalar, a list of scalars (inputs only), or Iterable. */
function typeOf(s: Js, required: boolean, input: boolean): string {
  const nonNull = required && !isNullable(s);
  const inner = nullableInner(s) ?? s;
  let t = scalarOf(inner);
  if (!t && input && inner.type === 'array' && inner.items) {
    const item = scalarOf(inner.items);
    if (item) t = `[${item}!]`;
  }
  return `${t ?? 'Iterable'}${nonNull ? '!' : ''}`;
}

function propertiesOf(schema: Js | undefined): { props: Record<string, Js>; required: Set<string> } {
  if (!schema) return { props: {}, required: new Set() };
  if (schema.properties) return { props: schema.properties, required: new Set(schema.required ?? []) };
  const branches: Js[] | undefined = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (branches) {
    // a union of objects: every property of any branch, required only where every branch requires it
    const props: Record<string, Js> = {};
    const all = branches.map((b) => propertiesOf(b));
    for (const b of all) Object.assign(props, b.props);
    const required = new Set(
      Object.keys(props).filter((k) => (schema.allOf ? all.some((b) => b.required.has(k)) : all.every((b) => b.required.has(k)))),
    );
    return { props, required };
  }
  return { props: {}, required: new Set() };
}

export interface DeriveOptions {
  /** the REST prefix the IRIs start with */
  apiPrefix: string;
}

/** The GraphQL field name of an operation. */
export function fieldName(o: Operation): string {
  if (o.graphql && o.graphql.name) return o.graphql.name;
  if (o.graphql && o.graphql.via) return o.graphql.via;
  const kind = kindOf(o);
  const params = Object.keys(o.params?.properties ?? {});
  const onItem = /\/:id$/.test(o.path) && params.length === 1;
  const T = o.shortName;
  if (o.method === 'GET' && kind === 'collection' && params.length === 0) return lowerFirst(plural(T));
  if (o.method === 'GET' && kind === 'item' && onItem) return lowerFirst(T);
  if (o.method === 'POST' && params.length === 0 && o.status === 201) return `create${T}`;
  if ((o.method === 'PUT' || o.method === 'PATCH') && onItem) return `update${T}`;
  if (o.method === 'DELETE' && onItem) return `delete${T}`;
  throw new Error(`operation ${o.id} (${o.method} ${o.path}) needs a GraphQL name`);
}

export function isQuery(o: Operation): boolean {
  return o.method === 'GET';
}

/** A field's description: its operation's summary, as a block string (raw but for an escaped triple quote). */
function fieldDoc(o: Operation): string {
  return `  """${o.summary.replace(/"""/g, '\\"""')}"""\n`;
}

/** Builds the SDL and resolvers of every operation that has a GraphQL field. */
export function deriveGraphql(ops: readonly Operation[], opts: DeriveOptions): GraphqlContribution & { fields: Map<string, Operation> } {
  const types = new Map<string, TypeInfo>();
  const fields = new Map<string, Operation>();
  const answered = ops.filter((o) => o.graphql !== false);
  const exposed = answered.filter((o) => !(o.graphql && o.graphql.via));

  // the IRI of each type: its item read's path, else its collection's path with the id appended
  for (const o of exposed) {
    const t = typeInfo(types, o.shortName);
    if (o.method === 'GET' && kindOf(o) === 'item' && /\/:id$/.test(o.path) && !t.iriBase)
      t.iriBase = `${opts.apiPrefix}${o.path.slice(0, -3)}`;
  }
  for (const o of answered) {
    const t = typeInfo(types, o.shortName);
    if (!t.iriBase && o.method === 'GET' && kindOf(o) === 'collection' && !o.path.includes(':')) t.iriBase = `${opts.apiPrefix}${o.path}/`;
    // a declaration served by another's field (a guest cart's bare totals) answers that field's type, not its own;
    // one that answers a part of its type (a balance check) leaves the type as the others make it
    if (!(o.graphql && (o.graphql.via || o.graphql.partial))) addFields(types, t, o.response as Js | undefined);
  }

  const queries: string[] = [];
  const mutations: string[] = [];
  const inputs: string[] = [];
  const queryResolvers: Record<string, unknown> = {};
  const mutationResolvers: Record<string, unknown> = {};
  const connections = new Set<string>();

  for (const o of exposed) {
    const t = types.get(o.shortName)!;
    for (const f of fieldsOf(o)) {
      if (fields.has(f.name)) throw new Error(`GraphQL field ${f.name} is declared by ${fields.get(f.name)!.id} and ${o.id}`);
      fields.set(f.name, o);
      const n = f.name;
      const doc = fieldDoc(o);
      if (isQuery(o)) {
        const args = queryArgs(o, t, f.args);
        const collection = kindOf(o) === 'collection';
        if (collection) connections.add(t.name);
        queries.push(`${doc}  ${n}${args ? `(${args})` : ''}: ${collection ? `${t.name}Connection` : t.name}`);
        queryResolvers[n] = collection ? connectionResolver(o, types, f.shape) : itemResolver(o, types, f.shape);
        continue;
      }
      const list = (o.graphql && o.graphql.list) || undefined;
      const inputFields = mutationInput(o, t, f.args);
      inputs.push(`input ${n}Input {\n${inputFields.map((x) => `  ${x}`).join('\n')}\n  clientMutationId: String\n}`);
      inputs.push(
        `type ${n}Payload {\n  ${list ? `${list}: [${t.name}!]!` : `${lowerFirst(t.name)}: ${t.name}`}\n  clientMutationId: String\n}`,
      );
      const flat = f.shape.flat
        ? `, ${inputFields
            .filter((x) => !x.startsWith('_empty'))
            .map((x) => x.replace(/!$/, ''))
            .join(', ')}`
        : '';
      mutations.push(`${doc}  ${n}(input: ${n}Input${f.shape.flat ? '' : '!'}${flat}): ${n}Payload`);
      mutationResolvers[n] = mutationResolver(o, types, f.shape, lowerFirst(t.name));
    }
  }

  const typeDefs: string[] = [
    'type PageInfo {\n  endCursor: String\n  startCursor: String\n  hasNextPage: Boolean!\n  hasPreviousPage: Boolean!\n}',
  ];
  const resolvers: IResolvers = {};
  for (const t of types.values()) {
    const lines = [...t.fields.entries()].map(([k, v]) => `  ${k}: ${v}`);
    if (!lines.length) lines.push('  _empty: Boolean');
    typeDefs.push(`type ${t.name} {\n${lines.join('\n')}\n}`);
    if (t.hasId) {
      const base = t.iriBase;
      resolvers[t.name] = {
        id: pure((parent: Js) => (typeof parent.id === 'number' && base ? `${base}${parent.id}` : parent.id)),
        // a node whose id is not its number's IRI (a URL resolution) carries its number as `_id`
        _id: pure((parent: Js) =>
          parent._id !== undefined ? parent._id : typeof parent.id === 'number' ? parent.id : idOfIri(parent.id, base),
        ),
      };
    }
  }
  for (const name of connections) {
    typeDefs.push(`type ${name}Connection {\n  edges: [${name}Edge!]!\n  pageInfo: PageInfo!\n  totalCount: Int!\n}`);
    typeDefs.push(`type ${name}Edge {\n  node: ${name}\n  cursor: String!\n}`);
  }
  typeDefs.push(...inputs);
  if (queries.length) typeDefs.push(`extend type Query {\n${queries.join('\n')}\n}`);
  if (mutations.length) typeDefs.push(`extend type Mutation {\n${mutations.join('\n')}\n}`);
  if (queries.length) resolvers.Query = queryResolvers as IResolvers['Query'];
  if (mutations.length) resolvers.Mutation = mutationResolvers as IResolvers['Mutation'];
  return { typeDefs: typeDefs.join('\n'), resolvers, fields };
}

function typeInfo(types: Map<string, TypeInfo>, name: string): TypeInfo {
  let t = types.get(name);
  if (!t) {
    t = { name, fields: new Map(), hasId: false };
    types.set(name, t);
  }
  return t;
}

function addFields(types: Map<string, TypeInfo>, t: TypeInfo, schema: Js | undefined): void {
  // a declaration that answers nothing (a delete) says nothing of the type's fields
  if (!schema) return;
  const { props, required } = propertiesOf(schema);
  const fresh = t.fields.size === 0;
  for (const [k, s] of Object.entries(props)) {
    if (!NAME.test(k) || k === '_id') continue;
    let type: string;
    const isId = k === 'id' && scalarOf(s) === 'Int';
    if (isId) {
      t.hasId = true;
      type = 'ID!';
    } else {
      type = typeOf(s, required.has(k), false);
      // an object field that names its type (an address of a cart or an order) adds its fields to that type
      const named = nestedType(s);
      if (named) addFields(types, typeInfo(types, named.name), named.schema);
    }
    const had = t.fields.get(k);
    // a field only some declarations of the type answer is nullable
    if (had === undefined) t.fields.set(k, fresh ? type : type.replace(/!$/, ''));
    else if (had !== type) t.fields.set(k, had.replace(/!$/, '') === type.replace(/!$/, '') ? had.replace(/!$/, '') : 'Iterable');
    if (isId && !t.fields.has('_id')) t.fields.set('_id', 'Int');
  }
  if (!fresh) for (const [k, v] of t.fields) if (!(k in props) && k !== '_id') t.fields.set(k, v.replace(/!$/, ''));
}

/** The object type a property names with `x-graphql-type` (see GraphqlType), with the object's schema. */
function nestedType(s: Js): { name: string; schema: Js } | undefined {
  const inner = nullableInner(s) ?? s;
  const name = inner[GRAPHQL_TYPE];
  return name && inner.properties ? { name, schema: inner } : undefined;
}

/** One GraphQL name of a declaration: its arguments (where not the REST parts') and how it maps them. */
interface FieldOf {
  name: string;
  args?: TObject;
  shape: FieldShape;
}

/** The field of a declaration and its aliases. */
function fieldsOf(o: Operation): FieldOf[] {
  const g = o.graphql || undefined;
  const list = g?.list;
  // a list replacement takes the REST params by name and the body as the one argument named after the list
  const listInput =
    list && !g?.input ? (a: Js) => ({ params: pick(a, Object.keys(o.params?.properties ?? {})), body: a[list] }) : undefined;
  const main: FieldOf = { name: fieldName(o), args: g?.args, shape: { input: g?.input ?? listInput } };
  const aliases = (g?.aliases ?? []).map((a: string | GraphqlAlias): FieldOf =>
    typeof a === 'string'
      ? { ...main, name: a }
      : { name: a.name, args: a.args ?? main.args, shape: { input: a.input ?? main.shape.input, flat: a.flat } },
  );
  return [main, ...aliases];
}

function pick(a: Js, keys: string[]): Js {
  return Object.fromEntries(keys.filter((k) => a[k] !== undefined).map((k) => [k, a[k]]));
}

function queryArgs(o: Operation, t: TypeInfo, custom: TObject | undefined): string {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (k: string, type: string) => {
    if (!NAME.test(k) || seen.has(k)) return;
    seen.add(k);
    out.push(`${k}: ${type}`);
  };
  const p = propertiesOf((custom ? undefined : o.params) as Js | undefined);
  for (const [k, s] of Object.entries(p.props)) add(k, k === 'id' && t.hasId ? 'ID!' : typeOf(s, true, true));
  if (kindOf(o) === 'collection') {
    add('first', 'Int');
    add('last', 'Int');
    add('before', 'String');
    add('after', 'String');
  }
  const q = propertiesOf((custom || o.query) as Js | undefined);
  for (const [k, s] of Object.entries(q.props)) add(k, typeOf(s, q.required.has(k), true));
  return out.join(', ');
}

/** The fields of a mutation's input type, as `name: Type`. */
function mutationInput(o: Operation, t: TypeInfo, custom: TObject | undefined): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (k: string, type: string) => {
    if (!NAME.test(k) || seen.has(k) || k === 'clientMutationId') return;
    seen.add(k);
    out.push(`${k}: ${type}`);
  };
  const p = propertiesOf((custom ? undefined : o.params) as Js | undefined);
  for (const [k, s] of Object.entries(p.props)) add(k, k === 'id' && t.hasId ? 'ID!' : typeOf(s, true, true));
  const list = o.graphql && o.graphql.list;
  if (list && !custom) add(list, 'Iterable!');
  else {
    for (const part of custom ? [custom] : [o.query, o.body]) {
      const b = propertiesOf(part as Js | undefined);
      for (const [k, s] of Object.entries(b.props)) add(k, typeOf(s, b.required.has(k), true));
    }
  }
  if (!out.length) out.push('_empty: Boolean');
  return out;
}
