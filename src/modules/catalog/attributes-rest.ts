import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, pageOf, sendCollection } from '../../platform/pagination.js';
import { AttributeSet, AttributeSetListQuery, IdParams, ProductAttribute, ProductAttributeListQuery } from './attributes-schemas.js';
import * as attributes from './attributes-service.js';

export function attributeRoutes(app: RestApp): void {
  app.get(
    '/product-attributes',
    {
      schema: {
        operationId: 'productAttributes.list',
        tags: ['product-attributes'],
        summary: 'Product attributes by code, with their options (paginated, 20 a page by default)',
        querystring: ProductAttributeListQuery,
        response: { 200: collectionResponse(ProductAttribute) },
      },
      config: { access: access.admin('product-attributes', 'read') },
    },
    async (req, reply) => {
      const page = pageOf(req.query, { defaultSize: 20, maxSize: 100 });
      const result = await attributes.listProductAttributes(req.ctx, { search: req.query.search ?? req.query.q }, page);
      return sendCollection(req, reply, 'ProductAttribute', result, page);
    },
  );
  app.get(
    '/product-attributes/:id',
    {
      schema: {
        operationId: 'productAttributes.get',
        tags: ['product-attributes'],
        summary: 'One product attribute with its options',
        params: IdParams,
        response: { 200: ProductAttribute },
      },
      config: { access: access.admin('product-attributes', 'read') },
    },
    async (req) => attributes.getProductAttribute(req.ctx, req.params.id),
  );
  app.get(
    '/attribute-sets',
    {
      schema: {
        operationId: 'attributeSets.list',
        tags: ['attribute-sets'],
        summary: 'Attribute sets by name, with their groups and attribute codes (paginated, 20 a page by default)',
        querystring: AttributeSetListQuery,
        response: { 200: collectionResponse(AttributeSet) },
      },
      config: { access: access.admin('attribute-sets', 'read') },
    },
    async (req, reply) => {
      const page = pageOf(req.query, { defaultSize: 20, maxSize: 100 });
      return sendCollection(req, reply, 'AttributeSet', await attributes.listAttributeSets(req.ctx, page), page);
    },
  );
  app.get(
    '/attribute-sets/:id',
    {
      schema: {
        operationId: 'attributeSets.get',
        tags: ['attribute-sets'],
        summary: 'One attribute set with its groups and attribute codes',
        params: IdParams,
        response: { 200: AttributeSet },
      },
      config: { access: access.admin('attribute-sets', 'read') },
    },
    async (req) => attributes.getAttributeSet(req.ctx, req.params.id),
  );
}
