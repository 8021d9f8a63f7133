// Builds the portal (web/ → web/dist), served by the service itself (createHttpApp staticDir).
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // One small bundle: the first page must be interactive well under a second.
    modulePreload: { polyfill: false },
  },
});
