/**
 * GraphQL-only customer fields, with no REST twin: Maho's `quickCreateCustomer`, an admin/API creation of an
 * account from an email and a name (a random password the customer replaces through a reset link).
 */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { randomToken } from '../../platform/auth/secrets.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import { createCustomer } from './service.js';

const typeDefs = `
  input quickCreateCustomerInput {
    email: String!
    firstname: String!
    lastname: String!
    "accepted for Maho's clients; not stored (an address needs a street, a city and a postcode)"
    telephone: String
    clientMutationId: String
  }
  type quickCreateCustomerPayload {
    customer: Customer
    clientMutationId: String
  }
  extend type Mutation {
    quickCreateCustomer(input: quickCreateCustomerInput!): quickCreateCustomerPayload
  }
`;

interface QuickCreate {
  input: { email: string; firstname: string; lastname: string; telephone?: string | null; clientMutationId?: string | null };
}

export const customersGraphql: GraphqlContribution = {
  typeDefs,
  resolvers: {
    Mutation: {
      quickCreateCustomer: resolver<QuickCreate>(access.admin('customers', 'create'), async (ctx, { input }) => {
        const customer = await createCustomer(ctx, { email: input.email, firstname: input.firstname, lastname: input.lastname, password: randomToken(16) });
        return { customer, clientMutationId: input.clientMutationId ?? null };
      }),
    },
  } as IResolvers,
};
