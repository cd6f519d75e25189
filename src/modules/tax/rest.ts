import { access } from '../../platform/auth/access.js';
import { crudRoutes } from '../../platform/crud-routes.js';
import type { RestApp } from '../../platform/module.js';
import {
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

/** Tax classes, rates and rules: back-office resources, read with their own grants. */
export function routes(app: RestApp): void {
  crudRoutes(app, {
    path: '/tax-classes',
    resource: 'tax-classes',
    operation: 'taxClasses',
    shortName: 'TaxClass',
    item: TaxClass,
    write: TaxClassCreate,
    updateBody: TaxClassUpdate,
    query: TaxClassListQuery,
    read: access.admin('tax-classes', 'read'),
    summaries: {
      list: 'Tax classes by name (paginated, 20 a page by default); filters classType, search',
      get: 'One tax class',
      create: 'Create a tax class',
      update: 'Update a tax class (only the fields sent; the type only while the class is unused)',
      delete: 'Delete a tax class no product, customer group or tax rule uses',
    },
    list: (ctx, q, page) => tax.listTaxClasses(ctx, { classType: q.classType, search: q.search }, page),
    get: tax.getTaxClassDto,
    create: tax.createTaxClass,
    update: tax.updateTaxClass,
    remove: tax.deleteTaxClass,
  });
  crudRoutes(app, {
    path: '/tax-rates',
    resource: 'tax-rates',
    operation: 'taxRates',
    shortName: 'TaxRate',
    item: TaxRate,
    write: TaxRateCreate,
    updateBody: TaxRateUpdate,
    query: TaxRateListQuery,
    read: access.admin('tax-rates', 'read'),
    summaries: {
      list: 'Tax rates by code (paginated, 20 a page by default); filter taxCountryId',
      get: 'One tax rate',
      create: 'Create a tax rate',
      update: 'Update a tax rate (only the fields sent; without titles they are kept)',
      delete: 'Delete a tax rate; it leaves every tax rule',
    },
    list: (ctx, q, page) => tax.listTaxRates(ctx, { taxCountryId: q.taxCountryId }, page),
    get: tax.getTaxRate,
    create: tax.createTaxRate,
    update: tax.updateTaxRate,
    remove: tax.deleteTaxRate,
  });
  crudRoutes(app, {
    path: '/tax-rules',
    resource: 'tax-rules',
    operation: 'taxRules',
    shortName: 'TaxRule',
    item: TaxRule,
    write: TaxRuleCreate,
    updateBody: TaxRuleUpdate,
    query: TaxRuleListQuery,
    read: access.admin('tax-rules', 'read'),
    summaries: {
      list: 'Tax rules by code (paginated, 20 a page by default)',
      get: 'One tax rule',
      create: 'Create a tax rule',
      update: 'Update a tax rule (only the fields sent; an id list sent replaces the list)',
      delete: 'Delete a tax rule',
    },
    list: (ctx, _q, page) => tax.listTaxRules(ctx, page),
    get: tax.getTaxRule,
    create: tax.createTaxRule,
    update: tax.updateTaxRule,
    remove: tax.deleteTaxRule,
  });
}
