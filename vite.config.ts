import { resolve } from 'node:path';
import viteFastify from '@fastify/vite/plugin';
import viteReact from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const projectRoot = import.meta.dirname;

// SWR's shim for React before 18 becomes React 19's own useSyncExternalStore.
const reactSyncExternalStore = resolve(projectRoot, 'client/lib/use-sync-external-store-shim.ts');

const sharedCode = /[\\/]client[\\/](entry-client\.tsx|components[\\/]|lib[\\/])|[\\/]node_modules[\\/]/;
const onDemandCode =
  /[\\/]client[\\/]lib[\\/](api-client|icon-draw|icon-loader)\.ts$|[\\/]node_modules[\\/](ofetch|ufo|destr|@iconify[\\/]utils|isbot)[\\/]|[\\/]client[\\/](components[\\/](account-details|account-disclosure|account-form|delete-account|emailed-link-page|form-field|session-reminder|link-problem|play-outcome|play-control|play-launch|play-session|local-time)|lib[\\/](intent-state|build-check|play|play-reminder))\.tsx?$/;
// What only a client navigation or a prefetch runs: one chunk, loaded after hydration (decision 0030).
const navigationCode =
  /[\\/]client[\\/](router[\\/](navigation|page-loader|form-post|payload|prefetch)|lib[\\/]navigate)\.ts$|[\\/]node_modules[\\/](p-limit|yocto-queue)[\\/]|[\\/]contract[\\/](navigation-guard|url-views|page-steps|route-middleware|form-state)\.ts$/;

// Strings only the server uses (emails, device names, notice pages): left out of the browser's.
const serverOnlyStrings = ['email', 'device', 'overload', 'unavailable'];

// Sections only the account pages show, but the keys named here (decision 0019): each language's
// `?account` chunk. A section not listed stays with every page, so a new string is never missing.
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

// Keys only the play page shows: bundled with it (`?play`), in neither part above.
const playPageStrings: Record<string, readonly string[]> = {
  play: [
    'launch',
    'control',
    'session',
    'reminder',
    'next',
    'starting',
    'verifying',
    'sessionHeading',
    'playingAs',
    'since',
    'sessionUnknown',
    'launchErrors',
    'responsibleHeading',
  ],
};

type Strings = Record<string, unknown>;

/** Takes the play page's keys out of `strings` and returns them. */
function takePlayPageStrings(strings: Strings): Strings {
  const taken: Strings = {};
  for (const [section, keys] of Object.entries(playPageStrings)) {
    const all = strings[section] as Strings | undefined;
    if (!all) continue;
    const rest = { ...all };
    taken[section] = Object.fromEntries(keys.map((key) => [key, all[key]]));
    for (const key of keys) delete rest[key];
    strings[section] = rest;
  }
  return taken;
}

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
          alias: [{ find: /^use-sync-external-store\/shim(?:\/index\.js)?$/, replacement: reactSyncExternalStore }],
        },
        ssr: { noExternal: ['react-router'] },
      }
    : {}),
  plugins: [
    {
      name: 'browser-strings',
      enforce: 'pre' as const,
      // locales/<locale>.json is the reader part in the browser, `?account` the rest on both sides.
      transform(this: { environment: { name: string } }, code: string, id: string) {
        const match = /[\\/]locales[\\/]\w+\.json(\?account|\?play)?$/.exec(id);
        if (!match || (!match[1] && this.environment.name !== 'client')) return null;
        const strings = JSON.parse(code) as Strings;
        for (const section of serverOnlyStrings) delete strings[section];
        const playPage = takePlayPageStrings(strings);
        if (match[1] === '?play')
          return { code: `export default ${JSON.stringify(playPage)};`, map: null, moduleType: 'js' };
        const { reader, account } = splitStrings(strings);
        if (!match[1]) return { code: JSON.stringify(reader), map: null };
        return { code: `export default ${JSON.stringify(account)};`, map: null, moduleType: 'js' };
      },
    },
    viteReact(),
    viteFastify({ clientModule: '/entry.server.tsx' }),
  ],
  build: {
    outDir: resolve(projectRoot, 'dist'),
    emptyOutDir: true,
    // Fonts stay files: the CSP allows no data: fonts, and lib/page-fonts.ts preloads them by name.
    assetsInlineLimit: (file: string) => (file.endsWith('.woff2') ? false : undefined),
  },
  environments: {
    client: {
      build: {
        // No modulepreload polyfill (decision 0019): without modulepreload chunks only load later.
        modulePreload: { polyfill: false },
        rollupOptions: {
          output: {
            // Shared code travels with the entry, so prefetching a page is one request; what only some
            // visits need (onDemandCode) loads when first used (test/ssr/first-load.test.ts holds it).
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
    // @fastify/vite finds the SSR bundle by the entry's name; SSR_MINIFY=0 keeps names for profiles.
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
