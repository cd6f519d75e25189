import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, pageOf, sendCollection } from '../../platform/pagination.js';
import {
  IdParams,
  TaxClass,
  TaxClassCreate,
  TaxClassListQuery,
  TaxClassUpdate,
  TaxRate,
  TaxRateCreate,
  TaxRateListQuery,
  TaxRateUpdate,
  TaxRule,
  TaxRuleCreate,
  TaxRuleListQuery,
  TaxRuleUpdate,
} from './schemas.js';
import * as tax from './service.js';

const PAGE = { defaultSize: 20, maxSize: 100 };
const deleted = { 204: Type.Null({ description: 'Deleted' }) };

export function routes(app: RestApp): void {
  // ---- tax classes ----
  const classes = { tags: ['tax-classes'], access: (op: 'read' | 'create' | 'write' | 'delete') => ({ access: access.admin('tax-classes', op) }) };
  app.get(
    '/tax-classes',
    {
      schema: {
        operationId: 'taxClasses.list',
        tags: classes.tags,
        summary: 'Tax classes by name (paginated, 20 a page by default); filters classType, search',
        querystring: TaxClassListQuery,
        response: { 200: collectionResponse(TaxClass) },
      },
      config: classes.access('read'),
    },
    async (req, reply) => {
      const page = pageOf(req.query, PAGE);
      const result = await tax.listTaxClasses(req.ctx, { classType: req.query.classType, search: req.query.search }, page);
      return sendCollection(req, reply, 'TaxClass', result, page);
    },
  );
  app.get(
    '/tax-classes/:id',
    {
      schema: { operationId: 'taxClasses.get', tags: classes.tags, summary: 'One tax class', params: IdParams, response: { 200: TaxClass } },
      config: classes.access('read'),
    },
    async (req) => tax.getTaxClassDto(req.ctx, req.params.id),
  );
  app.post(
    '/tax-classes',
    {
      schema: { operationId: 'taxClasses.create', tags: classes.tags, summary: 'Create a tax class', body: TaxClassCreate, response: { 201: TaxClass } },
      config: classes.access('create'),
    },
    async (req, reply) => reply.code(201).send(await tax.createTaxClass(req.ctx, req.body)),
  );
  app.put(
    '/tax-classes/:id',
    {
      schema: {
        operationId: 'taxClasses.update',
        tags: classes.tags,
        summary: 'Update a tax class (only the fields sent; the type only while the class is unused)',
        params: IdParams,
        body: TaxClassUpdate,
        response: { 200: TaxClass },
      },
      config: classes.access('write'),
    },
    async (req) => tax.updateTaxClass(req.ctx, req.params.id, req.body),
  );
  app.delete(
    '/tax-classes/:id',
    {
      schema: {
        operationId: 'taxClasses.delete',
        tags: classes.tags,
        summary: 'Delete a tax class no product, customer group or tax rule uses',
        params: IdParams,
        response: deleted,
      },
      config: classes.access('delete'),
    },
    async (req, reply) => {
      await tax.deleteTaxClass(req.ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );

  // ---- tax rates ----
  const rates = { tags: ['tax-rates'], access: (op: 'read' | 'create' | 'write' | 'delete') => ({ access: access.admin('tax-rates', op) }) };
  app.get(
    '/tax-rates',
    {
      schema: {
        operationId: 'taxRates.list',
        tags: rates.tags,
        summary: 'Tax rates by code (paginated, 20 a page by default); filter taxCountryId',
        querystring: TaxRateListQuery,
        response: { 200: collectionResponse(TaxRate) },
      },
      config: rates.access('read'),
    },
    async (req, reply) => {
      const page = pageOf(req.query, PAGE);
      return sendCollection(req, reply, 'TaxRate', await tax.listTaxRates(req.ctx, { taxCountryId: req.query.taxCountryId }, page), page);
    },
  );
  app.get(
    '/tax-rates/:id',
    {
      schema: { operationId: 'taxRates.get', tags: rates.tags, summary: 'One tax rate', params: IdParams, response: { 200: TaxRate } },
      config: rates.access('read'),
    },
    async (req) => tax.getTaxRate(req.ctx, req.params.id),
  );
  app.post(
    '/tax-rates',
    {
      schema: { operationId: 'taxRates.create', tags: rates.tags, summary: 'Create a tax rate', body: TaxRateCreate, response: { 201: TaxRate } },
      config: rates.access('create'),
    },
    async (req, reply) => reply.code(201).send(await tax.createTaxRate(req.ctx, req.body)),
  );
  app.put(
    '/tax-rates/:id',
    {
      schema: {
        operationId: 'taxRates.update',
        tags: rates.tags,
        summary: 'Update a tax rate (only the fields sent; without titles they are kept)',
        params: IdParams,
        body: TaxRateUpdate,
        response: { 200: TaxRate },
      },
      config: rates.access('write'),
    },
    async (req) => tax.updateTaxRate(req.ctx, req.params.id, req.body),
  );
  app.delete(
    '/tax-rates/:id',
    {
      schema: { operationId: 'taxRates.delete', tags: rates.tags, summary: 'Delete a tax rate; it leaves every tax rule', params: IdParams, response: deleted },
      config: rates.access('delete'),
    },
    async (req, reply) => {
      await tax.deleteTaxRate(req.ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );

  // ---- tax rules ----
  const rules = { tags: ['tax-rules'], access: (op: 'read' | 'create' | 'write' | 'delete') => ({ access: access.admin('tax-rules', op) }) };
  app.get(
    '/tax-rules',
    {
      schema: {
        operationId: 'taxRules.list',
        tags: rules.tags,
        summary: 'Tax rules by code (paginated, 20 a page by default)',
        querystring: TaxRuleListQuery,
        response: { 200: collectionResponse(TaxRule) },
      },
      config: rules.access('read'),
    },
    async (req, reply) => {
      const page = pageOf(req.query, PAGE);
      return sendCollection(req, reply, 'TaxRule', await tax.listTaxRules(req.ctx, page), page);
    },
  );
  app.get(
    '/tax-rules/:id',
    {
      schema: { operationId: 'taxRules.get', tags: rules.tags, summary: 'One tax rule', params: IdParams, response: { 200: TaxRule } },
      config: rules.access('read'),
    },
    async (req) => tax.getTaxRule(req.ctx, req.params.id),
  );
  app.post(
    '/tax-rules',
    {
      schema: { operationId: 'taxRules.create', tags: rules.tags, summary: 'Create a tax rule', body: TaxRuleCreate, response: { 201: TaxRule } },
      config: rules.access('create'),
    },
    async (req, reply) => reply.code(201).send(await tax.createTaxRule(req.ctx, req.body)),
  );
  app.put(
    '/tax-rules/:id',
    {
      schema: {
        operationId: 'taxRules.update',
        tags: rules.tags,
        summary: 'Update a tax rule (only the fields sent; an id list sent replaces the list)',
        params: IdParams,
        body: TaxRuleUpdate,
        response: { 200: TaxRule },
      },
      config: rules.access('write'),
    },
    async (req) => tax.updateTaxRule(req.ctx, req.params.id, req.body),
  );
  app.delete(
    '/tax-rules/:id',
    {
      schema: { operationId: 'taxRules.delete', tags: rules.tags, summary: 'Delete a tax rule', params: IdParams, response: deleted },
      config: rules.access('delete'),
    },
    async (req, reply) => {
      await tax.deleteTaxRule(req.ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
