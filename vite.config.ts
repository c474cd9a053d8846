import { resolve } from 'node:path';
import viteFastify from '@fastify/vite/plugin';
import viteReact from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const projectRoot = import.meta.dirname;

// react-router's package exports only its development build (extra checks and warnings); production
// builds use the production one, bundled into both the client and the SSR bundle.
const reactRouterProduction = resolve(projectRoot, 'node_modules/react-router/dist/production/index.mjs');
// SWR's `use-sync-external-store/shim` is React's useSyncExternalStore for React before 18: in the
// browser build it is React 19's own (client/lib/use-sync-external-store-shim.ts).
const reactSyncExternalStore = resolve(projectRoot, 'client/lib/use-sync-external-store-shim.ts');

const sharedCode = /[\\/]client[\\/](entry-client\.tsx|components[\\/]|lib[\\/])|[\\/]node_modules[\\/]/;
const onDemandCode =
  /[\\/]client[\\/]lib[\\/](api-client|icon-draw|icon-loader)\.ts$|[\\/]node_modules[\\/](ofetch|ufo|destr|@iconify[\\/]utils)[\\/]|[\\/]client[\\/](components[\\/](account-details|account-form|delete-account|emailed-link-page|form-field|session-reminder|link-problem|play-outcome|local-time)|lib[\\/](intent-state|build-check|play|play-reminder))\.tsx?$/;
// What only a client navigation or a prefetch runs: the loaders' code (validate, middleware, page
// data through SWR's cache), link prefetch, navigateTo and the URL guard. One chunk, loaded once the page has
// hydrated (client/entry-client.tsx).
const navigationCode =
  /[\\/]client[\\/](router[\\/](navigation|page-loader|form-post|payload|prefetch)|lib[\\/]navigate)\.ts$|[\\/]node_modules[\\/](p-limit|yocto-queue)[\\/]|[\\/]contract[\\/](navigation-guard|url-views|page-steps|route-middleware|form-state)\.ts$/;

// Strings only the server uses: the emails (lib/mail/messages.ts), device names (lib/device-name.ts)
// and the notice pages, busy and database away (lib/notice-page.ts). The browser's language chunks
// (client/i18n.ts) leave them out.
const serverOnlyStrings = ['email', 'device', 'overload', 'unavailable'];

// Strings only the account pages show (forms, the account page, Play's outcomes and session, the
// emailed links): each language's `?account` chunk, loaded with those pages (contract/routes.ts,
// `strings: 'account'`) and with the first Play, so a reader's first load leaves them out. A section
// goes whole, except the keys named here, which reader pages show. A section not listed stays with
// every page: a new string is never missing, at worst it costs a reader a few bytes.
const accountStrings: Record<string, readonly string[]> = {
  form: [],
  accountSettings: [],
  passwordReset: [],
  pageTitles: [],
  links: [],
  verifyEmail: [],
  confirmEmail: [],
  accountPage: ['link'], // the header's Account link
  play: ['ctaHeading', 'ctaText', 'ctaResponsible'], // the Play call to action on home and articles
};

type Strings = Record<string, unknown>;

/** A language's browser strings split in two: what every page shows, and the account pages' rest. */
function splitStrings(strings: Strings): { reader: Strings; account: Strings } {
  const reader: Strings = { ...strings };
  const account: Strings = {};
  for (const [section, kept] of Object.entries(accountStrings)) {
    const all = strings[section];
    if (all === undefined) continue;
    if (typeof all !== 'object' || all === null) throw new Error(`locales: ${section} is not a section`);
    const entries = Object.entries(all);
    account[section] = Object.fromEntries(entries.filter(([key]) => !kept.includes(key)));
    if (kept.length) reader[section] = Object.fromEntries(entries.filter(([key]) => kept.includes(key)));
    else delete reader[section];
  }
  return { reader, account };
}

export default defineConfig(({ mode }) => ({
  root: resolve(projectRoot, 'client'),
  ...(mode === 'production'
    ? {
        resolve: {
          alias: [
            { find: /^react-router$/, replacement: reactRouterProduction },
            { find: /^use-sync-external-store\/shim(?:\/index\.js)?$/, replacement: reactSyncExternalStore },
          ],
        },
        ssr: { noExternal: ['react-router'] },
      }
    : {}),
  plugins: [
    {
      name: 'browser-strings',
      enforce: 'pre' as const,
      // In the browser locales/xx.json is what every page shows and locales/xx.json?account the
      // account pages' rest. The server reads the whole files; its bundle holds `?account` (client/i18n.ts
      // names it) but never loads it, so there it is only the account part too.
      transform(this: { environment: { name: string } }, code: string, id: string) {
        const match = /[\\/]locales[\\/]\w+\.json(\?account)?$/.exec(id);
        if (!match || (!match[1] && this.environment.name !== 'client')) return null;
        const strings = JSON.parse(code) as Strings;
        for (const section of serverOnlyStrings) delete strings[section];
        const { reader, account } = splitStrings(strings);
        if (!match[1]) return { code: JSON.stringify(reader), map: null };
        // A query hides the .json from the bundler's JSON handling: the account part is a module.
        return { code: `export default ${JSON.stringify(account)};`, map: null, moduleType: 'js' };
      },
    },
    viteReact(),
    viteFastify({ clientModule: '/entry.server.tsx' }),
  ],
  build: {
    outDir: resolve(projectRoot, 'dist'),
    emptyOutDir: true,
    // A font is a file of its own, however small (the switch label's is 2.6 KB): the CSP allows fonts
    // from 'self' only, not data: URLs, and lib/page-fonts.ts preloads it by its file name.
    assetsInlineLimit: (file: string) => (file.endsWith('.woff2') ? false : undefined),
  },
  environments: {
    client: {
      build: {
        // No modulepreload polyfill (docs/decisions/0019-first-load-100-kb.md): a browser without
        // modulepreload (Safari before 17, Firefox before 115) still runs every page, only fetching the
        // language and page chunks after the entry instead of beside it.
        modulePreload: { polyfill: false },
        rollupOptions: {
          output: {
            // Code the pages share travels with the app's entry (loaded at start), so prefetching a
            // page is one request: the page's own chunk. The prefetch limit of 5 then holds for requests.
            // Code only some visits need is left out of it and loaded when first used (first-load budget:
            // test/ssr/first-load.test.ts): the API client (ofetch), the icon loader and drawing for icons
            // the page did not bring, the play client and what Play does and says (the first Play), the
            // new-build check (started after hydration), and the account pages' own components. A
            // component left in the group brings what it imports with it (includeDependenciesRecursively):
            // the emailed-link pages' component kept the account forms in every page's first load (they
            // are now a chunk of their own, so prefetching a form page fetches two chunks).
            // A language's account strings (client/i18n.ts) as en-account-<hash>.js, not a second en-<hash>.js.
            chunkFileNames: (chunk: { facadeModuleId: string | null }) =>
              chunk.facadeModuleId?.endsWith('?account')
                ? 'assets/[name]-account-[hash].js'
                : 'assets/[name]-[hash].js',
            codeSplitting: {
              groups: [
                {
                  name: 'app',
                  test: (id: string) => sharedCode.test(id) && !onDemandCode.test(id) && !navigationCode.test(id),
                },
                { name: 'navigation', test: navigationCode },
              ],
            },
          },
        },
      },
    },
    // @fastify/vite looks the SSR bundle up by the entry's file name; rollup would call it index.js.
    // SSR_MINIFY=0 keeps function names readable in CPU profiles (see docs/benchmark.md).
    ssr: {
      build: {
        ...(process.env.SSR_MINIFY === '0' ? { minify: false } : {}),
        rollupOptions: { output: { entryFileNames: 'entry.server.js' } },
      },
    },
  },
  server: {
    fs: { allow: [projectRoot] },
  },
}));
