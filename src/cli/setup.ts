/** The database itself: migrations and install data, and the demo data. */
import { sql } from 'drizzle-orm';
import { installState } from '../platform/tables.js';
import { modules } from '../modules/index.js';
import * as auth from '../modules/auth/accounts.js';
import { DEMO_CUSTOMER } from '../modules/customers/service.js';
import { out, UsageError, type Command } from './command.js';

/** migrate: what every command did first, reported. */
export const migrateCommand: Command = {
  usage: 'migrate',
  summary: 'apply pending migrations and install data (every command does this first)',
  async run({ migrated, installed }) {
    out(migrated.length ? `Migrations applied: ${migrated.join(', ')}` : 'No pending migrations.');
    out(installed.length ? `Install data added: ${installed.join(', ')}` : 'Install data is up to date.');
  },
};

/** demo:seed: the demo stores, customer, API user and OAuth client, once. */
export const demoSeedCommand: Command = {
  usage: 'demo:seed',
  summary: 'add the demo data (stores, customer, API user, OAuth client) once; does nothing when present',
  async run(env) {
    if (env.config.env === 'production')
      throw new UsageError('demo:seed is refused in production (NODE_ENV=production): demo credentials are public');
    const [done] = await env.db
      .select()
      .from(installState)
      .where(sql`${installState.module} = 'demo'`);
    if (done) {
      out('Demo data is already present.');
      return;
    }
    for (const m of modules) {
      if (!m.demo) continue;
      await m.demo(env.ctx());
      await env.registry.reload();
    }
    await env.db.insert(installState).values({ module: 'demo', version: 1 }).onConflictDoNothing();
    const { apiUser, oauthClient } = auth.DEMO_CREDENTIALS;
    out('Demo data added. Credentials:');
    out(`  API user      ${apiUser.username} / ${apiUser.apiKey}`);
    out(`  OAuth client  ${oauthClient.clientId} / ${oauthClient.secret}`);
    out(`  Customer      ${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}`);
  },
};
