/** Product attributes and attribute sets (back-office reads), served by REST and GraphQL. */
import { Type } from 'typebox';
import { access } from '../../../platform/auth/access.js';
import type { Ctx } from '../../../platform/context.js';
import { AppError, notFound } from '../../../platform/errors.js';
import { idOfIri } from '../../../platform/graphql-derive.js';
import { op, type Operation } from '../../../platform/operations.js';
import type { Page } from '../../../platform/pagination.js';
import { given, PageArgs } from '../graphql-args.js';
import {
  AttributeSet,
  AttributeSetListQuery,
  IdParams,
  ProductAttribute,
  ProductAttributeListQuery,
  type AttributeSortField,
} from './schemas.js';
import * as attributes from './service.js';
import * as writes from './write.js';
import { AttributeSetCreate, AttributeSetUpdate, ProductAttributeCreate, ProductAttributeUpdate } from './write-schemas.js';

const PAGE = { defaultSize: 20, maxSize: 100 };
const API_PREFIX = '/api/rest/v2';

/** `productAttributes` in Maho's names: `code` (exact, GraphQL only) and `search`. */
const ProductAttributeListArgs = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 255, description: 'exact attribute code' })),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'part of the code or label, case-insensitive' })),
  ...PageArgs,
});

/** `productAttribute` by IRI (or number) as API Platform's item query, or by `code` as the spec names it. */
const ProductAttributeArgs = Type.Object({
  id: Type.Optional(Type.String({ description: 'IRI (/api/rest/v2/product-attributes/12) or number' })),
  code: Type.Optional(Type.String({ maxLength: 255, description: 'attribute code' })),
});

async function listProductAttributes(
  ctx: Ctx,
  query: { search?: string; q?: string; sortBy?: AttributeSortField; sortDir?: 'asc' | 'desc' },
  graphql: { code?: string } | undefined,
  page: Page,
) {
  const code = graphql?.code;
  if (code !== undefined) {
    try {
      const one = await attributes.getProductAttributeByCode(ctx, code);
      const search = (query.search ?? '').trim().toLowerCase();
      const matches =
        !search ||
        one.attributeCode.toLowerCase().includes(search) ||
        String(one.frontendLabel ?? '')
          .toLowerCase()
          .includes(search);
      return { items: matches && page.offset === 0 ? [one] : [], total: matches ? 1 : 0 };
    } catch (err) {
      if (err instanceof AppError && err.status === 404) return { items: [], total: 0 };
      throw err;
    }
  }
  return attributes.listProductAttributes(ctx, { search: query.search ?? query.q, sortBy: query.sortBy, sortDir: query.sortDir }, page);
}

export const attributeOperations: Operation[] = [
  op({
    id: 'productAttributes.list',
    method: 'GET',
    path: '/product-attributes',
    tags: ['product-attributes'],
    summary:
      'Product attributes by code (or sortBy label, frontend_input, scope, position), with their options (paginated, 20 a page by default)',
    access: access.admin('product-attributes', 'read'),
    shortName: 'ProductAttribute',
    query: ProductAttributeListQuery,
    kind: 'collection',
    response: ProductAttribute,
    page: PAGE,
    graphql: {
      args: ProductAttributeListArgs,
      input: (a) => {
        const { code, ...rest } = given(a);
        return { query: rest, graphql: code !== undefined ? { code } : undefined };
      },
    },
    run: (ctx, { query, graphql, page }) => listProductAttributes(ctx, query, graphql, page),
  }),
  op({
    id: 'productAttributes.get',
    method: 'GET',
    path: '/product-attributes/:id',
    tags: ['product-attributes'],
    summary: 'One product attribute with its options',
    access: access.admin('product-attributes', 'read'),
    shortName: 'ProductAttribute',
    params: IdParams,
    response: ProductAttribute,
    graphql: {
      args: ProductAttributeArgs,
      input: (a) => ({ params: { id: a.id } }),
      around: async (args, next, ctx) => {
        const { id, code } = given(args);
        if (code !== undefined && id === undefined) return attributes.getProductAttributeByCode(ctx, String(code));
        if (id === undefined) throw new AppError('bad_request', 'productAttribute needs an id or a code', { reason: 'VALIDATION_FAILED' });
        const n = idOfIri(id, `${API_PREFIX}/product-attributes/`);
        if (n === undefined) throw notFound(`Product attribute not found: ${String(id)}`, { reason: 'ATTRIBUTE_NOT_FOUND' });
        return next({ id: n });
      },
    },
    run: (ctx, { params }) => attributes.getProductAttribute(ctx, params.id),
  }),
  op({
    id: 'attributeSets.list',
    method: 'GET',
    path: '/attribute-sets',
    tags: ['attribute-sets'],
    summary: 'Attribute sets by name, with their groups and attribute codes (paginated, 20 a page by default)',
    access: access.admin('attribute-sets', 'read'),
    shortName: 'AttributeSet',
    query: AttributeSetListQuery,
    kind: 'collection',
    response: AttributeSet,
    page: PAGE,
    run: (ctx, { page }) => attributes.listAttributeSets(ctx, page),
  }),
  op({
    id: 'attributeSets.get',
    method: 'GET',
    path: '/attribute-sets/:id',
    tags: ['attribute-sets'],
    summary: 'One attribute set with its groups and attribute codes',
    access: access.admin('attribute-sets', 'read'),
    shortName: 'AttributeSet',
    params: IdParams,
    response: AttributeSet,
    run: (ctx, { params }) => attributes.getAttributeSet(ctx, params.id),
  }),
  op({
    id: 'productAttributes.create',
    method: 'POST',
    path: '/product-attributes',
    tags: ['product-attributes'],
    summary: "Create a store's own attribute (with its options for select and multiselect inputs)",
    access: access.admin('product-attributes', 'create'),
    shortName: 'ProductAttribute',
    body: ProductAttributeCreate,
    response: ProductAttribute,
    status: 201,
    run: (ctx, { body }) => writes.createProductAttribute(ctx, body),
  }),
  op({
    id: 'productAttributes.update',
    method: 'PUT',
    path: '/product-attributes/:id',
    tags: ['product-attributes'],
    summary: 'Change an attribute (the fields sent); options replaces the list of a select or multiselect (options in use stay)',
    access: access.admin('product-attributes', 'write'),
    shortName: 'ProductAttribute',
    params: IdParams,
    body: ProductAttributeUpdate,
    response: ProductAttribute,
    run: (ctx, { params, body }) => writes.updateProductAttribute(ctx, params.id, body),
  }),
  op({
    id: 'productAttributes.delete',
    method: 'DELETE',
    path: '/product-attributes/:id',
    tags: ['product-attributes'],
    summary: "Delete a store's own attribute (not one a configurable product is built on); products lose its values",
    access: access.admin('product-attributes', 'delete'),
    shortName: 'ProductAttribute',
    params: IdParams,
    status: 204,
    run: (ctx, { params }) => writes.deleteProductAttribute(ctx, params.id),
  }),
  op({
    id: 'attributeSets.create',
    method: 'POST',
    path: '/attribute-sets',
    tags: ['attribute-sets'],
    summary: 'Create an attribute set: the groups given, else those of skeletonSetId, else those of the Default set',
    access: access.admin('attribute-sets', 'create'),
    shortName: 'AttributeSet',
    body: AttributeSetCreate,
    response: AttributeSet,
    status: 201,
    run: (ctx, { body }) => writes.createAttributeSet(ctx, body),
  }),
  op({
    id: 'attributeSets.update',
    method: 'PUT',
    path: '/attribute-sets/:id',
    tags: ['attribute-sets'],
    summary: 'Rename an attribute set and/or replace its groups and their attributes',
    access: access.admin('attribute-sets', 'write'),
    shortName: 'AttributeSet',
    params: IdParams,
    body: AttributeSetUpdate,
    response: AttributeSet,
    run: (ctx, { params, body }) => writes.updateAttributeSet(ctx, params.id, body),
  }),
  op({
    id: 'attributeSets.delete',
    method: 'DELETE',
    path: '/attribute-sets/:id',
    tags: ['attribute-sets'],
    summary: 'Delete an attribute set no product uses (not the Default set)',
    access: access.admin('attribute-sets', 'delete'),
    shortName: 'AttributeSet',
    params: IdParams,
    status: 204,
    run: (ctx, { params }) => writes.deleteAttributeSet(ctx, params.id),
  }),
];
