/** Starts the server: `npm start`. */
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './platform/config.js';
import { DEMO_CREDENTIALS } from './modules/auth/service.js';
import { DEMO_CUSTOMER } from './modules/customers/service.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const { app } = await buildApp({ config });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const base = config.publicUrl ?? `http://${shown}:${config.port}`;
  const lines = [
    '',
    `  Commerce API listening on ${base}`,
    `  REST:     ${base}/api/rest/v2   (OpenAPI: ${base}/api/rest/v2/openapi.json)`,
    `  Docs:     ${base}/api/docs`,
    `  GraphQL:  ${base}/api/graphql`,
    `  Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}/db`}`,
  ];
  if (config.demo) {
    lines.push(
      '',
      '  Demo credentials:',
      `    API user      ${DEMO_CREDENTIALS.apiUser.username} / ${DEMO_CREDENTIALS.apiUser.apiKey}`,
      `    OAuth client  ${DEMO_CREDENTIALS.oauthClient.clientId} / ${DEMO_CREDENTIALS.oauthClient.secret}`,
      `    Customer      ${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}`,
    );
  }
  console.log(lines.join('\n') + '\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
