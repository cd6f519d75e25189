/** Helpers for the GraphQL arguments of this module's declarations (Maho's argument names, IRIs, nulls). */
import { idOfIri } from '../../platform/graphql-derive.js';
import { notFound } from '../../platform/errors.js';

export const API = '/api/rest/v2';

/** The numeric id of an IRI of `path` (or a number); another resource's IRI is a 404, as an unknown id is. */
export function iriId(value: unknown, path: string, what: string): number {
  const id = idOfIri(value, `${API}${path}/`);
  if (id === undefined) throw notFound(`${what} not found`);
  return id;
}

/** GraphQL nulls of optional fields read as "not sent". */
export function dropNulls(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
}

/**
 * Maho's GraphQL argument names for person names (`firstName`, `lastName`) next to the REST ones (`firstname`,
 * `lastname`); the REST name wins when both are sent. `clientMutationId` is dropped.
 */
export function personNames(args: Record<string, any>): Record<string, unknown> {
  const { firstName, lastName, clientMutationId: _c, ...rest } = args;
  return {
    ...(firstName !== undefined ? { firstname: firstName } : {}),
    ...(lastName !== undefined ? { lastname: lastName } : {}),
    ...rest,
  };
}
