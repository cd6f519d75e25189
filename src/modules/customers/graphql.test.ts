/**
 * Customers, addresses and passwords over GraphQL, as Maho's clients use them: currentCustomer, customer(id)
 * for admins, the customers connection with its filters, quickCreateCustomer, updateCustomer, the password
 * mutations, and the address book (myAddresses, addresses, address, createAddress, updateAddress, deleteAddress).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { registerCustomer } from './service.js';

let t: TestApp;
let customer: string;
let customerId: number;
let other: string;
let otherId: number;
let admin: string;
let reader: string;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);
const CUSTOMER_IRI = (id: number) => `/api/rest/v2/customers/${id}`;
const ADDRESS = `{ firstName: "Ada", lastName: "Byron", street: ["1 Infinite Loop"], city: "Cupertino", postcode: "SW1A 1AA", countryId: "GB", telephone: "555-0101" }`;
const withAddress = (extra: string) => ADDRESS.replace(/ }$/, `, ${extra} }`);

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  reader = await t.tokens.apiUser(['customers/read']);
  customerId = await registerCustomer(t.systemCtx(), {
    email: 'gql-cust@example.com',
    password: 'Password123!',
    firstname: 'Grace',
    lastname: 'Hopper',
  });
  customer = await t.tokens.customer('gql-cust@example.com', 'Password123!');
  otherId = await registerCustomer(t.systemCtx(), {
    email: 'gql-other@example.com',
    password: 'Password123!',
    firstname: 'Alan',
    lastname: 'Turing',
  });
  other = await t.tokens.customer('gql-other@example.com', 'Password123!');
});
after(() => t.close());

describe('customers over GraphQL', () => {
  test('currentCustomer: the signed-in customer; anonymous 401, an admin 403', async () => {
    const me = await gql('{ currentCustomer { id _id email firstname lastname fullName isSubscribed addresses } }', customer);
    assert.equal(me.errors, undefined, JSON.stringify(me.errors));
    assert.deepEqual(me.data.currentCustomer, {
      id: CUSTOMER_IRI(customerId),
      _id: customerId,
      email: 'gql-cust@example.com',
      firstname: 'Grace',
      lastname: 'Hopper',
      fullName: 'Grace Hopper',
      isSubscribed: false,
      addresses: [],
    });
    const anon = await gql('{ currentCustomer { id } }');
    assert.equal(anon.data.currentCustomer, null);
    assert.equal(anon.errors[0].extensions.status, 401);
    const adm = await gql('{ currentCustomer { id } }', admin);
    assert.equal(adm.data.currentCustomer, null);
    assert.equal(adm.errors[0].extensions.status, 403);
  });

  test('customer(id): admins by IRI or number; a customer gets 403, even for itself; unknown ids are null with 404', async () => {
    const byIri = await gql(`{ customer(id: "${CUSTOMER_IRI(customerId)}") { _id email firstname } }`, admin);
    assert.deepEqual(byIri.data.customer, { _id: customerId, email: 'gql-cust@example.com', firstname: 'Grace' });
    const byNumber = await gql(`{ customer(id: ${customerId}) { _id } }`, reader);
    assert.deepEqual(byNumber.data.customer, { _id: customerId });
    for (const id of [customerId, otherId]) {
      const own = await gql(`{ customer(id: "${CUSTOMER_IRI(id)}") { _id email } }`, customer);
      assert.equal(own.data.customer, null);
      assert.equal(own.errors[0].extensions.status, 403);
    }
    const anon = await gql(`{ customer(id: ${customerId}) { _id } }`);
    assert.equal(anon.errors[0].extensions.status, 401);
    const missing = await gql('{ customer(id: "/api/rest/v2/customers/999999") { _id } }', admin);
    assert.equal(missing.data.customer, null);
    assert.equal(missing.errors[0].extensions.status, 404);
    const foreignIri = await gql(`{ customer(id: "/api/rest/v2/products/${customerId}") { _id } }`, admin);
    assert.equal(foreignIri.data.customer, null);
    assert.equal(foreignIri.errors[0].extensions.status, 404);
  });

  test('customers: a connection with search and email filters, pageSize/page and cursors; admin only', async () => {
    const all = await gql(
      '{ customers { totalCount edges { cursor node { _id email } } pageInfo { hasNextPage hasPreviousPage endCursor } } }',
      admin,
    );
    assert.equal(all.errors, undefined, JSON.stringify(all.errors));
    assert.ok(all.data.customers.totalCount >= 3);
    const ids = all.data.customers.edges.map((e: any) => e.node._id);
    assert.ok(ids.includes(customerId) && ids.includes(otherId));

    const byEmail = await gql('{ customers(email: "GQL-CUST@example.com") { totalCount edges { node { _id } } } }', admin);
    assert.deepEqual(byEmail.data.customers, { totalCount: 1, edges: [{ node: { _id: customerId } }] });
    const bySearch = await gql('{ customers(search: "turing") { totalCount edges { node { _id fullName } } } }', admin);
    assert.deepEqual(bySearch.data.customers.edges, [{ node: { _id: otherId, fullName: 'Alan Turing' } }]);

    const paged = await gql('{ customers(pageSize: 1, page: 2) { totalCount edges { node { _id } } } }', admin);
    assert.deepEqual(paged.data.customers.edges, [{ node: { _id: ids[1] } }]);
    const first = await gql('{ customers(first: 1) { edges { cursor node { _id } } pageInfo { hasNextPage endCursor } } }', admin);
    assert.deepEqual(
      first.data.customers.edges.map((e: any) => e.node._id),
      [ids[0]],
    );
    assert.equal(first.data.customers.pageInfo.hasNextPage, true);
    const next = await gql(
      `{ customers(first: 2, after: "${first.data.customers.pageInfo.endCursor}") { edges { node { _id } } pageInfo { hasPreviousPage } } }`,
      admin,
    );
    assert.deepEqual(
      next.data.customers.edges.map((e: any) => e.node._id),
      ids.slice(1, 3),
    );
    assert.equal(next.data.customers.pageInfo.hasPreviousPage, true);
    const last = await gql('{ customers(last: 1) { edges { node { _id } } } }', admin);
    assert.deepEqual(
      last.data.customers.edges.map((e: any) => e.node._id),
      [ids[ids.length - 1]],
    );

    const badCursor = await gql('{ customers(after: "not-a-cursor") { totalCount } }', admin);
    assert.equal(badCursor.errors[0].extensions.status, 400);
    const cust = await gql('{ customers { totalCount } }', customer);
    assert.equal(cust.data.customers, null);
    assert.equal(cust.errors[0].extensions.status, 403);
    const anon = await gql('{ customers { totalCount } }');
    assert.equal(anon.errors[0].extensions.status, 401);
  });

  test('quickCreateCustomer: an admin creates an account from an email and a name', async () => {
    const r = await gql(
      'mutation { quickCreateCustomer(input: {email: "quick@example.com", firstname: "Quick", lastname: "Made", telephone: "555", clientMutationId: "q"}) { customer { id _id email fullName } clientMutationId } }',
      admin,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const c = r.data.quickCreateCustomer;
    assert.equal(c.clientMutationId, 'q');
    assert.equal(c.customer.email, 'quick@example.com');
    assert.equal(c.customer.id, CUSTOMER_IRI(c.customer._id));
    const dup = await gql(
      'mutation { quickCreateCustomer(input: {email: "quick@example.com", firstname: "Q", lastname: "M"}) { customer { _id } } }',
      admin,
    );
    assert.equal(dup.errors[0].extensions.status, 409);
    const cust = await gql(
      'mutation { quickCreateCustomer(input: {email: "q2@example.com", firstname: "Q", lastname: "M"}) { customer { _id } } }',
      customer,
    );
    assert.equal(cust.data.quickCreateCustomer, null);
    assert.equal(cust.errors[0].extensions.status, 403);
    const bad = await gql(
      'mutation { quickCreateCustomer(input: {email: "not an email", firstname: "Q", lastname: "M"}) { customer { _id } } }',
      admin,
    );
    assert.equal(bad.errors[0].extensions.status, 400);
  });

  test('createCustomer registers (public); bad input is a 400', async () => {
    const r = await gql(
      'mutation { createCustomer(input: {email: "reg@example.com", password: "Password123!", firstName: "Reg", lastname: "Istered"}) { customer { _id email firstname lastname } } }',
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(r.data.createCustomer.customer.firstname, 'Reg');
    const missing = await gql('mutation { createCustomer(input: {email: "reg2@example.com"}) { customer { _id } } }');
    assert.equal(missing.data.createCustomer, null);
    assert.equal(missing.errors[0].extensions.status, 400);
    const tooLong = await gql(
      `mutation { createCustomer(input: {email: "${'x'.repeat(300)}@example.com", password: "Password123!", firstname: "A", lastname: "B"}) { customer { _id } } }`,
    );
    assert.equal(tooLong.errors[0].extensions.status, 400);
  });

  test('updateCustomer: a customer updates itself (Maho firstName/lastName); an admin names the customer by id', async () => {
    const self = await gql(
      'mutation { updateCustomer(input: {firstName: "Amazing", lastName: "Grace", clientMutationId: "u"}) { customer { _id firstname lastname } clientMutationId } }',
      customer,
    );
    assert.equal(self.errors, undefined, JSON.stringify(self.errors));
    assert.deepEqual(self.data.updateCustomer, {
      customer: { _id: customerId, firstname: 'Amazing', lastname: 'Grace' },
      clientMutationId: 'u',
    });
    const byAdmin = await gql(
      `mutation { updateCustomer(input: {id: "${CUSTOMER_IRI(otherId)}", firstname: "Alan M."}) { customer { _id firstname } } }`,
      admin,
    );
    assert.deepEqual(byAdmin.data.updateCustomer.customer, { _id: otherId, firstname: 'Alan M.' });
    // a customer naming another customer is refused; the admin-only operation needs customers/write
    const foreign = await gql(`mutation { updateCustomer(input: {id: "${otherId}", firstname: "Nope"}) { customer { _id } } }`, customer);
    assert.equal(foreign.data.updateCustomer, null);
    assert.equal(foreign.errors[0].extensions.status, 403);
    const readOnly = await gql(`mutation { updateCustomer(input: {id: "${otherId}", firstname: "Nope"}) { customer { _id } } }`, reader);
    assert.equal(readOnly.errors[0].extensions.status, 403);
    const adminSelf = await gql('mutation { updateCustomer(input: {firstname: "Nope"}) { customer { _id } } }', admin);
    assert.equal(adminSelf.errors[0].extensions.status, 403);
    const unknown = await gql('mutation { updateCustomer(input: {id: "999999", firstname: "Nope"}) { customer { _id } } }', admin);
    assert.equal(unknown.errors[0].extensions.status, 404);
    const bad = await gql('mutation { updateCustomer(input: {gender: 9}) { customer { _id } } }', customer);
    assert.equal(bad.errors[0].extensions.status, 400);
    const anon = await gql('mutation { updateCustomer(input: {firstname: "X"}) { customer { _id } } }');
    assert.equal(anon.errors[0].extensions.status, 401);
  });

  test('password mutations: change (wrong current password is 400), forgot (same answer either way), reset (bad token is 400)', async () => {
    const wrong = await gql(
      'mutation { changePasswordCustomer(input: {currentPassword: "nope", newPassword: "Another123!"}) { customerPassword { success } } }',
      other,
    );
    assert.equal(wrong.data.changePasswordCustomer, null);
    assert.equal(wrong.errors[0].extensions.status, 400);
    const ok = await gql(
      'mutation { changePasswordCustomer(input: {currentPassword: "Password123!", newPassword: "Another123!"}) { customerPassword { success message } } }',
      other,
    );
    assert.equal(ok.errors, undefined, JSON.stringify(ok.errors));
    assert.equal(ok.data.changePasswordCustomer.customerPassword.success, true);
    // the change ends the tokens issued before it: the customer signs in again
    other = await t.tokens.customer('gql-other@example.com', 'Another123!');
    const anon = await gql(
      'mutation { changePasswordCustomer(input: {currentPassword: "a", newPassword: "b"}) { customerPassword { success } } }',
    );
    assert.equal(anon.errors[0].extensions.status, 401);

    const known = await gql('mutation { forgotPasswordCustomer(input: {email: "gql-other@example.com"}) { customerPassword { email } } }');
    const unknown = await gql('mutation { forgotPasswordCustomer(input: {email: "nobody@example.com"}) { customerPassword { email } } }');
    assert.equal(known.errors, undefined, JSON.stringify(known.errors));
    assert.deepEqual(
      Object.keys(known.data.forgotPasswordCustomer.customerPassword),
      Object.keys(unknown.data.forgotPasswordCustomer.customerPassword),
    );
    const reset = await gql(
      'mutation { resetPasswordCustomer(input: {email: "gql-other@example.com", resetToken: "bogus", newPassword: "Third123!"}) { customerPassword { success } } }',
    );
    assert.equal(reset.data.resetPasswordCustomer, null);
    assert.equal(reset.errors[0].extensions.status, 400);
  });
});

describe('addresses over GraphQL', () => {
  test('createAddress, myAddresses, addresses, address, updateAddress, deleteAddress for the owner', async () => {
    const created = await gql(
      `mutation { createAddress(input: ${withAddress('isDefaultBilling: true')}) { address { id _id customerId firstname lastname street city postcode countryId isDefaultBilling isDefaultShipping } } }`,
      customer,
    );
    assert.equal(created.errors, undefined, JSON.stringify(created.errors));
    const a = created.data.createAddress.address;
    assert.equal(a.id, `/api/rest/v2/addresses/${a._id}`);
    assert.deepEqual(
      { ...a, id: undefined, _id: undefined },
      {
        id: undefined,
        _id: undefined,
        customerId,
        firstname: 'Ada',
        lastname: 'Byron',
        street: ['1 Infinite Loop'],
        city: 'Cupertino',
        postcode: 'SW1A 1AA',
        countryId: 'GB',
        isDefaultBilling: true,
        isDefaultShipping: true,
      },
    );

    for (const field of ['myAddresses', 'addresses']) {
      const list = await gql(
        `{ ${field} { totalCount edges { node { _id firstname isDefaultBilling isDefaultShipping } } pageInfo { hasNextPage } } }`,
        customer,
      );
      assert.equal(list.errors, undefined, JSON.stringify(list.errors));
      assert.deepEqual(list.data[field], {
        totalCount: 1,
        edges: [{ node: { _id: a._id, firstname: 'Ada', isDefaultBilling: true, isDefaultShipping: true } }],
        pageInfo: { hasNextPage: false },
      });
    }
    const one = await gql(`{ address(id: "${a.id}") { _id city } }`, customer);
    assert.deepEqual(one.data.address, { _id: a._id, city: 'Cupertino' });

    const updated = await gql(
      `mutation { updateAddress(input: {id: "${a.id}", lastName: "Lovelace", isDefaultShipping: true}) { address { _id lastname city isDefaultShipping } } }`,
      customer,
    );
    assert.deepEqual(updated.data.updateAddress.address, { _id: a._id, lastname: 'Lovelace', city: 'Cupertino', isDefaultShipping: true });
    const me = await gql('{ currentCustomer { defaultShippingAddress { id _id city } } }', customer);
    assert.equal(me.data.currentCustomer.defaultShippingAddress._id, a._id);
    assert.equal(me.data.currentCustomer.defaultShippingAddress.id, a.id, 'the IRI, as on address(id:)');
    assert.equal(me.data.currentCustomer.defaultShippingAddress.city, 'Cupertino');

    // another customer sees nothing of it
    const foreignRead = await gql(`{ address(id: "${a.id}") { _id } }`, other);
    assert.equal(foreignRead.data.address, null);
    assert.equal(foreignRead.errors[0].extensions.status, 404);
    const foreignUpdate = await gql(`mutation { updateAddress(input: {id: "${a.id}", city: "Elsewhere"}) { address { _id } } }`, other);
    assert.equal(foreignUpdate.data.updateAddress, null);
    assert.equal(foreignUpdate.errors[0].extensions.status, 404);
    const foreignDelete = await gql(`mutation { deleteAddress(input: {id: "${a.id}"}) { address { id } } }`, other);
    assert.equal(foreignDelete.errors[0].extensions.status, 404);
    const otherList = await gql('{ myAddresses { totalCount } }', other);
    assert.equal(otherList.data.myAddresses.totalCount, 0);

    const deleted = await gql(
      `mutation { deleteAddress(input: {id: "${a.id}", clientMutationId: "d"}) { address { id } clientMutationId } }`,
      customer,
    );
    assert.deepEqual(deleted.data.deleteAddress, { address: { id: a.id }, clientMutationId: 'd' });
    assert.equal((await gql('{ myAddresses { totalCount } }', customer)).data.myAddresses.totalCount, 0);
  });

  test('bad input is a 400; anonymous is a 401; an admin token is refused the own-address fields', async () => {
    const missing = await gql('mutation { createAddress(input: {firstName: "Ada"}) { address { _id } } }', customer);
    assert.equal(missing.data.createAddress, null);
    assert.equal(missing.errors[0].extensions.status, 400);
    const badCountry = await gql(`mutation { createAddress(input: ${ADDRESS.replace('"GB"', '"ZZ"')}) { address { _id } } }`, customer);
    assert.equal(badCountry.errors[0].extensions.status, 400);
    const tooLong = await gql(
      `mutation { createAddress(input: ${ADDRESS.replace('"Cupertino"', `"${'c'.repeat(300)}"`)}) { address { _id } } }`,
      customer,
    );
    assert.equal(tooLong.errors[0].extensions.status, 400);
    const badId = await gql('{ address(id: "/api/rest/v2/customers/1") { _id } }', customer);
    assert.equal(badId.data.address, null);
    assert.equal(badId.errors[0].extensions.status, 404);
    const anon = await gql('{ myAddresses { totalCount } }');
    assert.equal(anon.errors[0].extensions.status, 401);
    const adm = await gql('{ addresses { totalCount } }', admin);
    assert.equal(adm.errors[0].extensions.status, 403);
  });

  test("admins: customerAddresses and createCustomerAddress on any customer's book; the customers telephone filter", async () => {
    const created = await gql(
      `mutation { createCustomerAddress(input: ${withAddress(`customerId: ${otherId}`)}) { address { _id customerId firstname } } }`,
      admin,
    );
    assert.equal(created.errors, undefined, JSON.stringify(created.errors));
    assert.equal(created.data.createCustomerAddress.address.customerId, otherId);
    const list = await gql(`{ customerAddresses(customerId: ${otherId}) { totalCount edges { node { _id customerId } } } }`, admin);
    assert.deepEqual(list.data.customerAddresses.edges, [
      { node: { _id: created.data.createCustomerAddress.address._id, customerId: otherId } },
    ]);
    const byPhone = await gql('{ customers(telephone: "555-0101") { edges { node { _id } } } }', admin);
    assert.deepEqual(byPhone.data.customers.edges, [{ node: { _id: otherId } }]);
    const cust = await gql(`{ customerAddresses(customerId: ${otherId}) { totalCount } }`, customer);
    assert.equal(cust.errors[0].extensions.status, 403);
    const unknown = await gql('{ customerAddresses(customerId: 999999) { totalCount } }', admin);
    assert.equal(unknown.errors[0].extensions.status, 404);
    const badId = await gql('{ customerAddresses(customerId: 0) { totalCount } }', admin);
    assert.equal(badId.errors[0].extensions.status, 400);
  });
});
