/**
 * Helpers of the catalog's GraphQL declarations: argument lists in Maho's names, mapped onto the REST parts. A few
 * GraphQL filters have no REST query parameter (`categories(urlKey:)`, `productAttributes(code:)`): the
 * declaration's `graphql.input` hands them to `run` as its `graphql` part, which no REST request can set.
 */
import { Type } from 'typebox';

/** Arguments without their nulls (GraphQL's explicit null reads as not given, as an absent query parameter). */
export function given(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== null));
}

const INT_MAX = 2147483647;
export const IdArg = (description?: string) => Type.Integer({ minimum: 1, maximum: INT_MAX, description });
export const PageArgs = {
  page: Type.Optional(Type.Integer({ description: '1-based page number' })),
  pageSize: Type.Optional(Type.Integer({ description: 'page size, clamped to the list maximum' })),
};
