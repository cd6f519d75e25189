/** GraphQL for tax classes, rates and rules: the same service functions and access rules as the REST routes. */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import { pageOf } from '../../platform/pagination.js';
import type { TaxClassCreateInput, TaxRateCreateInput, TaxRuleCreateInput } from './schemas.js';
import * as tax from './service.js';
import { dropNulls } from './util.js';

const typeDefs = `
  type TaxClass {
    id: Int!
    className: String!
    classType: String!
  }
  type TaxClassCollection {
    items: [TaxClass!]!
    totalCount: Int!
  }
  type TaxRateTitle {
    storeId: Int!
    title: String!
  }
  type TaxRate {
    id: Int!
    code: String!
    taxCountryId: String!
    taxRegionId: Int
    taxPostcode: String!
    rate: Float!
    zipIsRange: Boolean!
    zipFrom: String
    zipTo: String
    titles: [TaxRateTitle!]!
  }
  type TaxRateCollection {
    items: [TaxRate!]!
    totalCount: Int!
  }
  type TaxRule {
    id: Int!
    code: String!
    priority: Int!
    position: Int!
    calculateSubtotal: Boolean!
    customerTaxClassIds: [Int!]!
    productTaxClassIds: [Int!]!
    taxRateIds: [Int!]!
  }
  type TaxRuleCollection {
    items: [TaxRule!]!
    totalCount: Int!
  }
  input CreateTaxClassInput {
    className: String!
    classType: String
  }
  input UpdateTaxClassInput {
    className: String
    classType: String
  }
  input TaxRateTitleInput {
    storeId: Int!
    title: String!
  }
  input CreateTaxRateInput {
    code: String!
    taxCountryId: String!
    rate: Float!
    taxRegionId: Int
    taxPostcode: String
    zipIsRange: Boolean
    zipFrom: String
    zipTo: String
    titles: [TaxRateTitleInput!]
  }
  input UpdateTaxRateInput {
    code: String
    taxCountryId: String
    rate: Float
    taxRegionId: Int
    taxPostcode: String
    zipIsRange: Boolean
    zipFrom: String
    zipTo: String
    titles: [TaxRateTitleInput!]
  }
  input CreateTaxRuleInput {
    code: String!
    priority: Int
    position: Int
    calculateSubtotal: Boolean
    customerTaxClassIds: [Int!]!
    productTaxClassIds: [Int!]!
    taxRateIds: [Int!]!
  }
  input UpdateTaxRuleInput {
    code: String
    priority: Int
    position: Int
    calculateSubtotal: Boolean
    customerTaxClassIds: [Int!]
    productTaxClassIds: [Int!]
    taxRateIds: [Int!]
  }
  extend type Query {
    taxClasses(classType: String, search: String, page: Int, pageSize: Int): TaxClassCollection!
    taxClass(id: Int!): TaxClass
    taxRates(taxCountryId: String, page: Int, pageSize: Int): TaxRateCollection!
    taxRate(id: Int!): TaxRate
    taxRules(page: Int, pageSize: Int): TaxRuleCollection!
    taxRule(id: Int!): TaxRule
  }
  extend type Mutation {
    createTaxClass(input: CreateTaxClassInput!): TaxClass!
    updateTaxClass(id: Int!, input: UpdateTaxClassInput!): TaxClass!
    deleteTaxClass(id: Int!): Boolean!
    createTaxRate(input: CreateTaxRateInput!): TaxRate!
    updateTaxRate(id: Int!, input: UpdateTaxRateInput!): TaxRate!
    deleteTaxRate(id: Int!): Boolean!
    createTaxRule(input: CreateTaxRuleInput!): TaxRule!
    updateTaxRule(id: Int!, input: UpdateTaxRuleInput!): TaxRule!
    deleteTaxRule(id: Int!): Boolean!
  }
`;

interface PageArgs {
  page?: number | null;
  pageSize?: number | null;
}
type Input = Record<string, unknown>;

const page = (args: PageArgs) => pageOf({ page: args.page ?? undefined, pageSize: args.pageSize ?? undefined }, { defaultSize: 20, maxSize: 100 });
const collection = <T>(r: { items: T[]; total: number }) => ({ items: r.items, totalCount: r.total });
/** rates: a null region or postcode is sent on purpose (every region, any postcode); other nulls read as "not sent" */
const rateInput = (i: Input) => dropNulls(i, ['taxRegionId', 'taxPostcode']);

export const taxGraphql: GraphqlContribution = {
  typeDefs,
  // `resolver` types its context as GqlContext, which Mercurius's IResolvers does not know (see platform/graphql.ts)
  resolvers: {
    Query: {
      taxClasses: resolver<PageArgs & { classType?: string | null; search?: string | null }>(access.admin('tax-classes', 'read'), async (ctx, args) =>
        collection(await tax.listTaxClasses(ctx, { classType: args.classType ?? undefined, search: args.search ?? undefined }, page(args))),
      ),
      taxClass: resolver<{ id: number }>(access.admin('tax-classes', 'read'), (ctx, args) => tax.getTaxClassDto(ctx, args.id)),
      taxRates: resolver<PageArgs & { taxCountryId?: string | null }>(access.admin('tax-rates', 'read'), async (ctx, args) =>
        collection(await tax.listTaxRates(ctx, { taxCountryId: args.taxCountryId ?? undefined }, page(args))),
      ),
      taxRate: resolver<{ id: number }>(access.admin('tax-rates', 'read'), (ctx, args) => tax.getTaxRate(ctx, args.id)),
      taxRules: resolver<PageArgs>(access.admin('tax-rules', 'read'), async (ctx, args) => collection(await tax.listTaxRules(ctx, page(args)))),
      taxRule: resolver<{ id: number }>(access.admin('tax-rules', 'read'), (ctx, args) => tax.getTaxRule(ctx, args.id)),
    },
    Mutation: {
      createTaxClass: resolver<{ input: Input }>(access.admin('tax-classes', 'create'), (ctx, args) =>
        tax.createTaxClass(ctx, dropNulls(args.input) as TaxClassCreateInput),
      ),
      updateTaxClass: resolver<{ id: number; input: Input }>(access.admin('tax-classes', 'write'), (ctx, args) =>
        tax.updateTaxClass(ctx, args.id, dropNulls(args.input)),
      ),
      deleteTaxClass: resolver<{ id: number }>(access.admin('tax-classes', 'delete'), async (ctx, args) => {
        await tax.deleteTaxClass(ctx, args.id);
        return true;
      }),
      createTaxRate: resolver<{ input: Input }>(access.admin('tax-rates', 'create'), (ctx, args) =>
        tax.createTaxRate(ctx, rateInput(args.input) as TaxRateCreateInput),
      ),
      updateTaxRate: resolver<{ id: number; input: Input }>(access.admin('tax-rates', 'write'), (ctx, args) =>
        tax.updateTaxRate(ctx, args.id, rateInput(args.input)),
      ),
      deleteTaxRate: resolver<{ id: number }>(access.admin('tax-rates', 'delete'), async (ctx, args) => {
        await tax.deleteTaxRate(ctx, args.id);
        return true;
      }),
      createTaxRule: resolver<{ input: Input }>(access.admin('tax-rules', 'create'), (ctx, args) =>
        tax.createTaxRule(ctx, dropNulls(args.input) as TaxRuleCreateInput),
      ),
      updateTaxRule: resolver<{ id: number; input: Input }>(access.admin('tax-rules', 'write'), (ctx, args) =>
        tax.updateTaxRule(ctx, args.id, dropNulls(args.input)),
      ),
      deleteTaxRule: resolver<{ id: number }>(access.admin('tax-rules', 'delete'), async (ctx, args) => {
        await tax.deleteTaxRule(ctx, args.id);
        return true;
      }),
    },
  } as IResolvers,
};
