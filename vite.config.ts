import { resolve } from 'node:path';
import viteFastify from '@fastify/vite/plugin';
import viteReact from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const projectRoot = import.meta.dirname;

export default defineConfig({
  root: resolve(projectRoot, 'client'),
  plugins: [viteReact(), viteFastify({ clientModule: '/entry-server.tsx' })],
  build: {
    outDir: resolve(projectRoot, 'dist'),
    emptyOutDir: true,
  },
  environments: {
    client: {
      build: {
        rollupOptions: {
          output: {
            // Code the pages share travels with the app's entry (loaded at start), so prefetching a
            // page is one request: the page's own chunk. The prefetch limit of 5 then holds for requests.
            codeSplitting: {
              groups: [{ name: 'app', test: /[\\/]client[\\/](entry-client\.tsx|components[\\/]|lib[\\/])|[\\/]node_modules[\\/]/ }],
            },
          },
        },
      },
    },
    // @fastify/vite looks the SSR bundle up by the entry's file name; rollup would call it index.js.
    ssr: { build: { rollupOptions: { output: { entryFileNames: 'entry-server.js' } } } },
  },
  server: {
    fs: { allow: [projectRoot] },
  },
});
