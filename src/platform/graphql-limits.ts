/**
 * What one GraphQL request may ask for: selection depth 12, at most 100 aliases, a document of at most 64 KB,
 * and a cost of at most 2,000, where the cost is the number of values the answer may hold:
 *
 * - each field selected costs 1, counted through fragments every time they are spread;
 * - a list field (one that takes a page size: `first`, `last`, `pageSize` or `itemsPerPage`) costs 1 plus its
 *   sub-selection's cost once per item of the page it asks for: the size given (a literal or a variable's value,
 *   at most the operation's largest page), else the operation's default page size; a list the operation answers
 *   whole (store views, countries, the category tree) counts as 100 items. So
 *   `products(pageSize: 20) { edges { node { sku name price } } }` costs 1 + 20 × 5 = 101, and 100 aliases of
 *   `products(first: 100)`, which would answer 10,000 products, cost more than 30,000 and are refused, as
 *   Vendure's query-complexity hardening refuses them. A storefront's product page of 20 items with a dozen
 *   fields, its category tree (100 categories by default) and its cart fit with room to spare; a full page of
 *   100 products fits with up to 17 fields each.
 *
 * Introspection (`__schema`, `__type`) costs 1 and is not measured inside, so that a client's schema query fits;
 * aliases of it still count. Depth, aliases and the plain field count (every field 1: no page can make a query
 * cheaper than that) are checked when the document is validated, once per document text, walking it without
 * recursion and stopping as soon as a limit is passed, so a fragment that spreads others many times over costs
 * no more than the limit. The page-weighted cost needs the variables' values: it is computed before each
 * execution, over a document the validation has already bounded.
 */
import {
  GraphQLError,
  Kind,
  getNamedType,
  isInterfaceType,
  isObjectType,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValueNode,
} from 'graphql';
import { kindOf, type Operation } from './operations.js';
import type { PageOptions } from './pagination.js';

export const GRAPHQL_LIMITS = {
  depth: 12,
  cost: 2000,
  aliases: 100,
  documentBytes: 64 * 1024,
} as const;

export type GraphqlLimits = { [K in keyof typeof GRAPHQL_LIMITS]: number };

/** The page sizes of list fields, by `Type.field` (`Query.products`); a list field not named here pages as DEFAULT_PAGE. */
export type GraphqlPageSizes = ReadonlyMap<string, PageOptions>;

const DEFAULT_PAGE = { defaultSize: 20, maxSize: 100 };

/** An unpaginated collection answers its whole list (store views, countries, a category tree): counted as this many items. */
const WHOLE_LIST = { defaultSize: 100, maxSize: 100 };

/** The page sizes of the derived query fields (field name → declaration) that answer a collection. */
export function pageSizesOf(fields: ReadonlyMap<string, Operation>): GraphqlPageSizes {
  const sizes = new Map<string, PageOptions>();
  for (const [name, o] of fields) if (o.method === 'GET' && kindOf(o) === 'collection') sizes.set(`Query.${name}`, o.page ?? WHOLE_LIST);
  return sizes;
}

/** The arguments that set how many items a list field answers. */
const SIZE_ARGS = ['first', 'last', 'pageSize', 'itemsPerPage'];

interface Measure {
  depth: number;
  cost: number;
  aliases: number;
}

function measure(context: ValidationContext, root: SelectionSetNode, limits: GraphqlLimits): Measure {
  const m: Measure = { depth: 0, cost: 0, aliases: 0 };
  const stack: { set: SelectionSetNode; depth: number }[] = [{ set: root, depth: 1 }];
  // every selection walked, fragments included: a cycle of fragments (refused by graphql-js's own rule) ends too
  let steps = 0;
  while (stack.length) {
    const { set, depth } = stack.pop()!;
    for (const sel of set.selections) {
      if (++steps > limits.cost * 4) return { ...m, cost: limits.cost + 1 };
      if (sel.kind === Kind.FIELD) {
        m.cost++;
        if (sel.alias) m.aliases++;
        if (depth > m.depth) m.depth = depth;
        if (sel.selectionSet && !sel.name.value.startsWith('__')) stack.push({ set: sel.selectionSet, depth: depth + 1 });
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        stack.push({ set: sel.selectionSet, depth });
      } else {
        const fragment = context.getFragment(sel.name.value);
        if (fragment) stack.push({ set: fragment.selectionSet, depth });
      }
      if (m.cost > limits.cost || m.aliases > limits.aliases || m.depth > limits.depth) return m;
    }
  }
  return m;
}

const costMessage = (limit: number) =>
  `The query costs more than ${limit} (each field selected costs 1, and a list's fields once per item of the page it asks for)`;

/** The validation rule that refuses an operation past the limits, naming the limit. */
export function limitsRule(limits: GraphqlLimits = GRAPHQL_LIMITS) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(node) {
      const m = measure(context, node.selectionSet, limits);
      const refuse = (message: string) => context.reportError(new GraphQLError(message, { nodes: [node] }));
      if (m.depth > limits.depth) refuse(`The query is nested more than ${limits.depth} levels deep`);
      else if (m.aliases > limits.aliases) refuse(`The query uses more than ${limits.aliases} aliases`);
      else if (m.cost > limits.cost) refuse(costMessage(limits.cost));
      return false;
    },
  });
}

type Vars = Record<string, unknown> | null | undefined;

/** An integer a size argument is given as: a literal, or a variable's value (else its declared default). */
function intOf(value: ValueNode, variables: Vars, op: OperationDefinitionNode): number | undefined {
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind !== Kind.VARIABLE) return undefined;
  const name = value.name.value;
  const given = variables?.[name];
  if (typeof given === 'number') return given;
  if (given !== undefined) return undefined;
  const declared = op.variableDefinitions?.find((d) => d.variable.name.value === name)?.defaultValue;
  return declared?.kind === Kind.INT ? Number(declared.value) : undefined;
}

/** How many items a list field answers at most: the size asked for within the field's largest page, else its default. */
function pageSizeOf(field: FieldNode, def: GraphQLField<unknown, unknown>, parent: string, cx: CostContext): number {
  if (!def.args.some((a) => SIZE_ARGS.includes(a.name))) return 1;
  const page = cx.pageSizes.get(`${parent}.${def.name}`) ?? DEFAULT_PAGE;
  // answered whole, whatever size is asked for
  if (page === WHOLE_LIST) return WHOLE_LIST.defaultSize;
  const max = page.maxSize ?? DEFAULT_PAGE.maxSize;
  let size: number | undefined;
  for (const arg of field.arguments ?? []) {
    if (!SIZE_ARGS.includes(arg.name.value)) continue;
    const n = intOf(arg.value, cx.variables, cx.op);
    if (n !== undefined) size = Math.max(size ?? 0, n);
  }
  return Math.max(1, Math.min(max, size ?? page.defaultSize ?? DEFAULT_PAGE.defaultSize));
}

interface CostContext {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Vars;
  op: OperationDefinitionNode;
  pageSizes: GraphqlPageSizes;
}

function fieldsOf(type: GraphQLNamedType | undefined): Record<string, GraphQLField<unknown, unknown>> | undefined {
  return type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields() : undefined;
}

/**
 * The cost of a selection on `type`. The validation has bounded what this walks (every field and spread, counted
 * through fragments, is at most four times the cost limit), so it may recurse.
 */
function costOf(set: SelectionSetNode, type: GraphQLNamedType | undefined, cx: CostContext): number {
  let cost = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      cost++;
      if (!sel.selectionSet || sel.name.value.startsWith('__')) continue;
      const def = fieldsOf(type)?.[sel.name.value];
      if (!def) continue;
      cost += pageSizeOf(sel, def, type!.name, cx) * costOf(sel.selectionSet, getNamedType(def.type), cx);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const on = sel.typeCondition ? cx.schema.getType(sel.typeCondition.name.value) : type;
      cost += costOf(sel.selectionSet, on ?? undefined, cx);
    } else {
      const fragment = cx.fragments.get(sel.name.value);
      if (fragment) cost += costOf(fragment.selectionSet, cx.schema.getType(fragment.typeCondition.name.value) ?? undefined, cx);
    }
  }
  return cost;
}

/** The page-weighted cost of each operation of a validated document, with the request's variables. */
export function operationCosts(schema: GraphQLSchema, document: DocumentNode, variables: Vars, pageSizes: GraphqlPageSizes): number[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const costs: number[] = [];
  for (const op of document.definitions) {
    if (op.kind !== Kind.OPERATION_DEFINITION) continue;
    const root = schema.getRootType(op.operation) ?? undefined;
    costs.push(costOf(op.selectionSet, root, { schema, fragments, variables, op, pageSizes }));
  }
  return costs;
}

/**
 * The check run before each execution (Mercurius's `preExecution` hook): refuses a document whose page-weighted
 * cost is past the limit, as the validation refuses the other limits (HTTP 200, `errors` with status 400).
 */
export function costCheck(limits: GraphqlLimits = GRAPHQL_LIMITS, pageSizes: GraphqlPageSizes = new Map()) {
  return async (schema: GraphQLSchema, document: DocumentNode, _context: unknown, variables: Vars): Promise<void> => {
    if (operationCosts(schema, document, variables, pageSizes).some((c) => c > limits.cost)) {
      throw new GraphQLError(costMessage(limits.cost), { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', status: 400 } });
    }
  };
}
