/** GraphQL for product attributes and attribute sets: the same service functions and access rules as REST. */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import { pageOf } from '../../platform/pagination.js';
import * as attributes from './attributes-service.js';

const typeDefs = `
  type ProductAttributeOption {
    label: String!
    value: String!
  }
  type ProductAttribute {
    id: Int!
    attributeCode: String!
    frontendLabel: String!
    frontendInput: String!
    backendType: String!
    scope: String!
    isGlobal: Int!
    isFilterable: Int!
    defaultValue: String
    applyTo: [String!]!
    frontendClass: String
    note: String
    position: Int!
    options: [ProductAttributeOption!]!
    isRequired: Boolean!
    isUserDefined: Boolean!
    isUnique: Boolean!
    isSearchable: Boolean!
    isFilterableInSearch: Boolean!
    isComparable: Boolean!
    isVisibleOnFront: Boolean!
    isHtmlAllowedOnFront: Boolean!
    isUsedForPriceRules: Boolean!
    usedInProductListing: Boolean!
    usedForSortBy: Boolean!
    isVisibleInAdvancedSearch: Boolean!
    isWysiwygEnabled: Boolean!
    isConfigurable: Boolean!
  }
  type ProductAttributeCollection {
    items: [ProductAttribute!]!
    totalCount: Int!
  }
  type AttributeSetGroupAttribute {
    code: String!
    sortOrder: Int!
  }
  type AttributeSetGroup {
    name: String!
    sortOrder: Int!
    attributes: [AttributeSetGroupAttribute!]!
  }
  type AttributeSet {
    id: Int!
    attributeSetName: String!
    attributeCodes: [String!]!
    groups: [AttributeSetGroup!]!
  }
  type AttributeSetCollection {
    items: [AttributeSet!]!
    totalCount: Int!
  }
  extend type Query {
    productAttributes(search: String, page: Int, pageSize: Int): ProductAttributeCollection!
    productAttribute(code: String!): ProductAttribute
    attributeSets(page: Int, pageSize: Int): AttributeSetCollection!
    attributeSet(id: Int!): AttributeSet
  }
`;

interface PageArgs {
  page?: number | null;
  pageSize?: number | null;
}

const pageFrom = (args: PageArgs) =>
  pageOf({ page: args.page ?? undefined, pageSize: args.pageSize ?? undefined }, { defaultSize: 20, maxSize: 100 });

export const attributesGraphql: GraphqlContribution = {
  typeDefs,
  // `resolver` types its context as GqlContext, which Mercurius's IResolvers does not know (see platform/graphql.ts)
  resolvers: {
    Query: {
      productAttributes: resolver<PageArgs & { search?: string | null }>(access.admin('product-attributes', 'read'), async (ctx, args) => {
        const { items, total } = await attributes.listProductAttributes(ctx, { search: args.search ?? undefined }, pageFrom(args));
        return { items, totalCount: total };
      }),
      productAttribute: resolver<{ code: string }>(access.admin('product-attributes', 'read'), (ctx, args) =>
        attributes.getProductAttributeByCode(ctx, args.code),
      ),
      attributeSets: resolver<PageArgs>(access.admin('attribute-sets', 'read'), async (ctx, args) => {
        const { items, total } = await attributes.listAttributeSets(ctx, pageFrom(args));
        return { items, totalCount: total };
      }),
      attributeSet: resolver<{ id: number }>(access.admin('attribute-sets', 'read'), (ctx, args) => attributes.getAttributeSet(ctx, args.id)),
    },
  } as IResolvers,
};
