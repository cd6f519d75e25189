/**
 * Where introspection is off (production), GraphQL errors do not suggest names ("Did you mean …?"): a client
 * that may not read the schema cannot spell it out field by field either. With introspection on they stay.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers.js';

let closed: TestApp;
let open: TestApp;

before(async () => {
  closed = await buildTestApp({ env: { GRAPHQL_INTROSPECTION: 'false' } });
  open = await buildTestApp({ env: { GRAPHQL_INTROSPECTION: 'true' } });
});
after(async () => {
  await closed.close();
  await open.close();
});

/** Misspelled names of each kind graphql-js would suggest a correction for. */
const MISSPELLED: [string, string, Record<string, unknown>?][] = [
  ['unknown field', '{ apiVersio }'],
  ['unknown field of a type', '{ storeConfig { storeNam } }'],
  ['unknown argument', '{ products(pageSiz: 1) { totalCount } }'],
  ['unknown type of a variable', 'query ($s: Strin) { apiVersion }'],
  [
    'unknown input field',
    'mutation ($input: subscribeNewsletterInput!) { subscribeNewsletter(input: $input) { clientMutationId } }',
    { input: { emai: 'x@example.com' } },
  ],
];

async function messages(t: TestApp, query: string, variables?: Record<string, unknown>): Promise<string[]> {
  const body = await t.gql(query, undefined, variables);
  assert.ok(Array.isArray(body.errors) && body.errors.length, `${query}: ${JSON.stringify(body)}`);
  return body.errors.map((e: { message: string }) => e.message);
}

describe('GraphQL name suggestions', () => {
  test('with introspection off, no error names a field, argument or type the query did not', async () => {
    for (const [what, query, variables] of MISSPELLED) {
      for (const m of await messages(closed, query, variables)) {
        assert.doesNotMatch(m, /Did you mean/i, `${what}: ${m}`);
      }
    }
    // the error still says what is wrong
    const [m] = await messages(closed, '{ apiVersio }');
    assert.match(m, /Cannot query field "apiVersio" on type "Query"/);
  });

  test('with introspection on, the suggestions help', async () => {
    const [m] = await messages(open, '{ apiVersio }');
    assert.match(m, /Did you mean "apiVersion"/);
    for (const [what, query, variables] of MISSPELLED) {
      assert.ok(
        (await messages(open, query, variables)).some((x) => /Did you mean/.test(x)),
        what,
      );
    }
  });
});
