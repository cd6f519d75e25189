/** The contact form over GraphQL: contactConfig and submitContact (public), with the same checks as REST. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { mailOutbox } from '../../platform/tables.js';
import { honeypotFieldName, SUCCESS_MESSAGE } from './service.js';

let t: TestApp;
let seq = 0;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);
const SUBMIT = 'mutation($input: submitContactInput!) { submitContact(input: $input) { contact { success message } clientMutationId } }';
const valid = () => ({ name: 'Jane Doe', email: `gql-contact${++seq}@example.com`, comment: 'Hello over GraphQL' });
async function mailsTo(email: string) {
  const rows = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.template, 'contact/form'));
  return rows.filter((r) => r.textBody.includes(email));
}

before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

describe('contact over GraphQL', () => {
  test('contactConfig: public settings, as REST', async () => {
    const r = await gql('{ contactConfig { id enabled captchaProvider captchaSiteKey honeypotField } }');
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.deepEqual(r.data.contactConfig, {
      id: 'contact',
      enabled: true,
      captchaProvider: 'none',
      captchaSiteKey: null,
      honeypotField: honeypotFieldName(t.services.config.jwtSecret),
    });
  });

  test('submitContact sends the form (anonymous or customer)', async () => {
    const input = { ...valid(), telephone: '555', clientMutationId: 'c' };
    const r = await gql(SUBMIT, undefined, { input });
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.deepEqual(r.data.submitContact, { contact: { success: true, message: SUCCESS_MESSAGE }, clientMutationId: 'c' });
    assert.equal((await mailsTo(input.email)).length, 1);
    const customer = await t.tokens.customer();
    const c = await gql(SUBMIT, customer, { input: valid() });
    assert.equal(c.data.submitContact.contact.success, true);
  });

  test('a filled honeypot answers success and sends nothing', async () => {
    const input = { ...valid(), honeypot: 'I am a bot' };
    const r = await gql(SUBMIT, undefined, { input });
    assert.equal(r.data.submitContact.contact.success, true);
    assert.equal((await mailsTo(input.email)).length, 0);
  });

  test('bad input is a 4xx error, never a 500', async () => {
    const missing = await gql(SUBMIT, undefined, { input: { email: 'x@example.com', comment: 'hi' } });
    assert.equal(missing.data.submitContact, null);
    assert.equal(missing.errors[0].extensions.status, 422);
    const email = await gql(SUBMIT, undefined, { input: { ...valid(), email: 'not-an-email' } });
    assert.equal(email.errors[0].extensions.status, 422);
    const wrongType = await gql('mutation { submitContact(input: {name: 5}) { contact { success } } }');
    assert.ok(wrongType.errors.length);
    assert.ok((wrongType.errors[0].extensions?.status ?? 400) < 500);
  });
});
