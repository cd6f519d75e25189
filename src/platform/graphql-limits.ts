/**
 * What one GraphQL request may ask for, as Maho limits it: selection depth 12, cost 500 (each field selected
 * costs 1, counted through fragments every time they are spread), at most 100 aliases, and a document of at
 * most 64 KB. Introspection (`__schema`, `__type`) costs 1 and is not measured inside, so that a client's
 * schema query fits; aliases of it still count. The measure walks the operation without recursion and stops as
 * soon as a limit is passed, so a fragment that spreads others many times over costs no more than the limit.
 */
import { GraphQLError, Kind, type ASTVisitor, type SelectionSetNode, type ValidationContext } from 'graphql';

export const GRAPHQL_LIMITS = {
  depth: 12,
  cost: 500,
  aliases: 100,
  documentBytes: 64 * 1024,
} as const;

export type GraphqlLimits = { [K in keyof typeof GRAPHQL_LIMITS]: number };

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

/** The validation rule that refuses an operation past the limits, naming the limit. */
export function limitsRule(limits: GraphqlLimits = GRAPHQL_LIMITS) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(node) {
      const m = measure(context, node.selectionSet, limits);
      const refuse = (message: string) => context.reportError(new GraphQLError(message, { nodes: [node] }));
      if (m.depth > limits.depth) refuse(`The query is nested more than ${limits.depth} levels deep`);
      else if (m.aliases > limits.aliases) refuse(`The query uses more than ${limits.aliases} aliases`);
      else if (m.cost > limits.cost) refuse(`The query selects more than ${limits.cost} fields (its cost is limited to ${limits.cost})`);
      return false;
    },
  });
}
