/** GraphQL for customer groups: the same service functions and access rules as the REST routes. */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import { pageOf } from '../../platform/pagination.js';
import * as groups from './groups-service.js';

const typeDefs = `
  type CustomerGroup {
    id: Int!
    code: String!
    taxClassId: Int!
    taxClassName: String
  }
  type CustomerGroupCollection {
    items: [CustomerGroup!]!
    totalCount: Int!
  }
  input CreateCustomerGroupInput {
    code: String!
    taxClassId: Int
  }
  input UpdateCustomerGroupInput {
    code: String
    taxClassId: Int
  }
  extend type Query {
    customerGroups(page: Int, pageSize: Int): CustomerGroupCollection!
    customerGroup(id: Int!): CustomerGroup
  }
  extend type Mutation {
    createCustomerGroup(input: CreateCustomerGroupInput!): CustomerGroup!
    updateCustomerGroup(id: Int!, input: UpdateCustomerGroupInput!): CustomerGroup!
    deleteCustomerGroup(id: Int!): Boolean!
  }
`;

interface PageArgs {
  page?: number | null;
  pageSize?: number | null;
}
interface GroupInput {
  code?: string | null;
  taxClassId?: number | null;
}

/** GraphQL nulls read as "not sent". */
function input(i: GroupInput): { code?: string; taxClassId?: number } {
  return { code: i.code ?? undefined, taxClassId: i.taxClassId ?? undefined };
}

export const groupsGraphql: GraphqlContribution = {
  typeDefs,
  // `resolver` types its context as GqlContext, which Mercurius's IResolvers does not know (see platform/graphql.ts)
  resolvers: {
    Query: {
      customerGroups: resolver<PageArgs>(access.admin('customer-groups', 'read'), async (ctx, args) => {
        const page = pageOf({ page: args.page ?? undefined, pageSize: args.pageSize ?? undefined }, { defaultSize: 20, maxSize: 100 });
        const { items, total } = await groups.listCustomerGroups(ctx, page);
        return { items, totalCount: total };
      }),
      customerGroup: resolver<{ id: number }>(access.admin('customer-groups', 'read'), (ctx, args) => groups.getCustomerGroup(ctx, args.id)),
    },
    Mutation: {
      createCustomerGroup: resolver<{ input: GroupInput & { code: string } }>(access.admin('customer-groups', 'create'), (ctx, args) =>
        groups.createCustomerGroup(ctx, { ...input(args.input), code: args.input.code }),
      ),
      updateCustomerGroup: resolver<{ id: number; input: GroupInput }>(access.admin('customer-groups', 'write'), (ctx, args) =>
        groups.updateCustomerGroup(ctx, args.id, input(args.input)),
      ),
      deleteCustomerGroup: resolver<{ id: number }>(access.admin('customer-groups', 'delete'), async (ctx, args) => {
        await groups.deleteCustomerGroup(ctx, args.id);
        return true;
      }),
    },
  } as IResolvers,
};
