import { resolve } from 'node:path';
import viteFastify from '@fastify/vite/plugin';
import viteReact from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const projectRoot = import.meta.dirname;

// react-router's package exports only its development build (extra checks and warnings); production
// builds use the production one, bundled into both the client and the SSR bundle.
const reactRouterProduction = resolve(projectRoot, 'node_modules/react-router/dist/production/index.mjs');

const sharedCode = /[\\/]client[\\/](entry-client\.tsx|components[\\/]|lib[\\/])|[\\/]node_modules[\\/]/;
const onDemandCode =
  /[\\/]client[\\/]lib[\\/](api-client|icon-draw|icon-loader)\.ts$|[\\/]node_modules[\\/](ofetch|ufo|destr|@iconify[\\/]utils)[\\/]|[\\/]client[\\/](components[\\/](account-details|account-form|emailed-link-page|form-field|session-reminder|link-problem)|lib[\\/](account-actions|build-check|play|play-reminder|form-state))\.tsx?$/;

// Strings only the server uses: the emails (lib/mail/messages.ts), device names (lib/device-name.ts)
// and the busy page (plugins/overload.ts). The browser's language chunks (client/i18n.ts) leave them out.
const serverOnlyStrings = ['email', 'device', 'overload'];

export default defineConfig(({ mode }) => ({
  root: resolve(projectRoot, 'client'),
  ...(mode === 'production'
    ? {
        resolve: {
          alias: [
            { find: /^react-router$/, replacement: reactRouterProduction },
          ],
        },
        ssr: { noExternal: ['react-router'] },
      }
    : {}),
  plugins: [
    {
      // react-router's components made with forwardRef (Link, NavLink, Form) are kept by the bundler
      // whether used or not (a call, then a displayName assignment); marked pure, the unused ones go
      // (the app draws its links itself: client/components/app-link.tsx).
      name: 'react-router-pure-components',
      transform(code: string, id: string) {
        if (!/[\\/]react-router[\\/]dist[\\/]production[\\/]chunk-/.test(id)) return null;
        const pure = code.replace(
          /var (\w+) = (React\d*\.forwardRef\([\s\S]*?)\);\n\1\.displayName = ("[^"]*");/g,
          'var $1 = /* @__PURE__ */ Object.assign(/* @__PURE__ */ $2), { displayName: $3 });',
        );
        return pure === code ? null : { code: pure, map: null };
      },
    },
    {
      name: 'browser-strings',
      enforce: 'pre' as const,
      applyToEnvironment: (environment: { name: string }) => environment.name === 'client',
      transform(code: string, id: string) {
        if (!/[\\/]locales[\\/]\w+\.json$/.test(id)) return null;
        const strings = JSON.parse(code) as Record<string, unknown>;
        for (const section of serverOnlyStrings) delete strings[section];
        return { code: JSON.stringify(strings), map: null };
      },
    },
    viteReact(),
    viteFastify({ clientModule: '/entry-server.tsx' }),
  ],
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
            // Code only some visits need is left out of it and loaded when first used (first-load budget:
            // test/ssr/first-load.test.ts): the API client (ofetch), the icon loader and drawing for icons
            // the page did not bring, the play client (the first Play), the new-build check (started
            // after hydration), and the account pages' own components. A component left in the group
            // brings what it imports with it (includeDependenciesRecursively): the emailed-link pages'
            // component kept the account forms in every page's first load (they are now a chunk of
            // their own, so prefetching a form page fetches two chunks).
            codeSplitting: {
              groups: [{ name: 'app', test: (id: string) => sharedCode.test(id) && !onDemandCode.test(id) }],
            },
          },
        },
      },
    },
    // @fastify/vite looks the SSR bundle up by the entry's file name; rollup would call it index.js.
    // SSR_MINIFY=0 keeps function names readable in CPU profiles (see README, Benchmark).
    ssr: {
      build: {
        ...(process.env.SSR_MINIFY === '0' ? { minify: false } : {}),
        rollupOptions: { output: { entryFileNames: 'entry-server.js' } },
      },
    },
  },
  server: {
    fs: { allow: [projectRoot] },
  },
}));
