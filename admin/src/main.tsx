/**
 * The back office's entry: the query cache, the session, the message catalogs and the router, whose routes are
 * the files under routes/ (the router plugin writes routeTree.gen.ts from them; each screen is its own chunk).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createRouter } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import './i18n';
import './styles.css';
import { ApiError } from './api/client';
import { SessionProvider } from './auth/session';
import { routeTree } from './routeTree.gen';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // a refused or missing resource will not change by asking again
      retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const basepath = document.querySelector('meta[name="admin-path"]')?.getAttribute('content') ?? '/admin';

function NotFound() {
  const { t } = useTranslation();
  return (
    <div className="not-found">
      <h1>{t('errors.notFoundTitle')}</h1>
      <p>{t('errors.notFound')}</p>
    </div>
  );
}

export const router = createRouter({
  routeTree,
  basepath,
  context: { queryClient },
  defaultPreload: 'intent',
  defaultNotFoundComponent: NotFound,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </QueryClientProvider>
  </StrictMode>,
);
