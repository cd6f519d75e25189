import { createFileRoute } from '@tanstack/react-router';
import { Configuration, type ConfigSearch } from '../../../screens/system/Configuration';

const SCOPES = ['default', 'websites', 'stores'] as const;

export const Route = createFileRoute('/_app/configuration/')({
  validateSearch: (s: Record<string, unknown>): ConfigSearch => ({
    section: typeof s.section === 'string' && /^[a-z0-9_]{1,64}$/.test(s.section) ? s.section : undefined,
    scope: SCOPES.find((x) => x === s.scope),
    scopeId: Number.isSafeInteger(Number(s.scopeId)) && Number(s.scopeId) >= 0 && s.scopeId !== '' ? Number(s.scopeId) : undefined,
  }),
  component: function ConfigurationRoute() {
    return <Configuration search={Route.useSearch()} />;
  },
});
