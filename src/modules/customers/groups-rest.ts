import { access } from '../../platform/auth/access.js';
import { crudOperations } from '../../platform/crud-routes.js';
import type { Operation } from '../../platform/operations.js';
import { dropNulls, iriId } from './gql-input.js';
import { CustomerGroup, CustomerGroupCreate, CustomerGroupListQuery, CustomerGroupUpdate } from './groups-schemas.js';
import * as groups from './groups-service.js';

const crud = crudOperations({
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
    list: 'Customer groups by code unless sortBy (paginated, 20 a page by default); search in the code',
    get: 'One customer group',
    create: 'Create a customer group',
    update: 'Update a customer group (only the fields sent)',
    delete: "Delete a customer group; its customers move to their website's default group",
  },
  list: (ctx, q, page) => groups.listCustomerGroups(ctx, page, q.search, { by: q.sortBy, dir: q.sortDir }),
  get: groups.getCustomerGroup,
  create: groups.createCustomerGroup,
  update: groups.updateCustomerGroup,
  remove: groups.deleteCustomerGroup,
});

/** The five operations of customer groups; over GraphQL a null `taxClassId` of an update reads as not sent. */
export const groupOperations: Operation[] = crud.map((o) =>
  o.id === 'customerGroups.update'
    ? {
        ...o,
        graphql: {
          input: ({ id, clientMutationId: _c, ...body }) => ({
            params: { id: iriId(id, '/customer-groups', 'Customer group') },
            body: dropNulls(body),
          }),
        },
      }
    : o,
);
