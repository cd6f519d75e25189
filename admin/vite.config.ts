/**
 * The back office's build: `npm run build` (run by `npm ci`) writes it to dist/admin, which the server serves at
 * ADMIN_PATH. Asset paths are relative; the server sets them to where it serves the application. Each screen is
 * its own chunk, loaded when first opened.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [
    // writes src/routeTree.gen.ts from the files under src/routes (committed, so that type checks need no build)
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: fileURLToPath(new URL('./src/routes', import.meta.url)),
      generatedRouteTree: fileURLToPath(new URL('./src/routeTree.gen.ts', import.meta.url)),
      quoteStyle: 'single',
    }),
    react(),
  ],
  build: {
    outDir: fileURLToPath(new URL('../dist/admin', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    modulePreload: { polyfill: false },
  },
  server: {
    // `npx vite admin` against a server on :8080 during development
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
