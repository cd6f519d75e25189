import { access } from '../../platform/auth/access.js';
import { crudRoutes } from '../../platform/crud-routes.js';
import type { RestApp } from '../../platform/module.js';
import { CustomerGroup, CustomerGroupCreate, CustomerGroupListQuery, CustomerGroupUpdate } from './groups-schemas.js';
import * as groups from './groups-service.js';

export function groupRoutes(app: RestApp): void {
  crudRoutes(app, {
    path: '/customer-groups',
    resource: 'customer-groups',
    operation: 'customerGroups',
    shortName: 'CustomerGroup',
    item: CustomerGroup,
    write: CustomerGroupCreate,
    updateBody: CustomerGroupUpdate,
    query: CustomerGroupListQuery,
    read: access.admin('customer-groups', 'read'),
    summaries: {
      list: 'Customer groups by code (paginated, 20 a page by default)',
      get: 'One customer group',
      create: 'Create a customer group',
      update: 'Update a customer group (only the fields sent)',
      delete: "Delete a customer group; its customers move to their website's default group",
    },
    list: (ctx, _q, page) => groups.listCustomerGroups(ctx, page),
    get: groups.getCustomerGroup,
    create: groups.createCustomerGroup,
    update: groups.updateCustomerGroup,
    remove: groups.deleteCustomerGroup,
  });
}
