import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { msalSubset } from './scripts/msal-subset.ts';
import { downshiftSubset } from './scripts/downshift-subset.ts';
import { precompress } from './scripts/precompress.ts';

export default defineConfig({
  plugins: [react(), tailwindcss(), msalSubset(), downshiftSubset(), precompress()],
  build: {
    sourcemap: true,
    // .vite/manifest.json: the chunk graph the browser budgets are measured on (scripts/web-bundle.ts).
    manifest: true,
    rollupOptions: {
      input: { main: 'index.html', redirect: 'redirect.html' },
    },
  },
});
