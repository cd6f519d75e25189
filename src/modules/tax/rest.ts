import { access } from '../../platform/auth/access.js';
import { crudOperations } from '../../platform/crud-routes.js';
import type { Operation } from '../../platform/operations.js';
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

import { dropNulls } from './util.js';

/**
 * GraphQL nulls read as "not sent", except where null means something (a rate's region and postcode: every
 * region, any postcode). Connections take their arguments as REST takes its query.
 */
function nullsDropped(ops: Operation[], keep: string[] = []): Operation[] {
  // a delete takes only the id (and an `around` would make its answer the payload's)
  return ops.map((o) =>
    o.method === 'DELETE' ? o : { ...o, graphql: { ...(o.graphql || {}), around: (args, next) => next(dropNulls(args, keep)) } },
  );
}

/** Tax classes, rates and rules: back-office resources, read with their own grants. */
export const operations: Operation[] = [
  ...nullsDropped(
    crudOperations({
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
    }),
  ),
  ...nullsDropped(
    crudOperations({
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
        list: 'Tax rates by code (paginated, 20 a page by default); filters taxCountryId, search',
        get: 'One tax rate',
        create: 'Create a tax rate',
        update: 'Update a tax rate (only the fields sent; without titles they are kept)',
        delete: 'Delete a tax rate; it leaves every tax rule',
      },
      list: (ctx, q, page) => tax.listTaxRates(ctx, { taxCountryId: q.taxCountryId, search: q.search }, page),
      get: tax.getTaxRate,
      create: tax.createTaxRate,
      update: tax.updateTaxRate,
      remove: tax.deleteTaxRate,
    }),
    ['taxRegionId', 'taxPostcode'],
  ),
  ...nullsDropped(
    crudOperations({
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
        list: 'Tax rules by code (paginated, 20 a page by default); filter search',
        get: 'One tax rule',
        create: 'Create a tax rule',
        update: 'Update a tax rule (only the fields sent; an id list sent replaces the list)',
        delete: 'Delete a tax rule',
      },
      list: (ctx, q, page) => tax.listTaxRules(ctx, page, { search: q.search }),
      get: tax.getTaxRule,
      create: tax.createTaxRule,
      update: tax.updateTaxRule,
      remove: tax.deleteTaxRule,
    }),
  ),
];
