import { spawn, execFile, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import t from 'tap';
import ts from 'typescript';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/logger.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { browserUserAgent } from '../helpers/app.ts';
import { collectConsole, launchBrowser, settled } from '../helpers/browser.ts';
import { createTestDatabase } from '../helpers/database.ts';

// The client runtime in Chromium, on the production build: new-build reload, chunk-failure
// reload, navigateTo's refusals, route middleware redirects, start-up and render errors.

const root = resolve(import.meta.dirname, '../..');
const playOrigin = 'https://play.example';
// A UUID like real user ids: the account page's data (prefetched from the header) queries by it.
const testUser: PublicUser = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'ann@example.com',
  displayName: 'Ann Tester',
  locale: 'en',
  createdAt: '2026-01-01T00:00:00Z',
  emailVerified: true,
};

/** The service on the build in dist/, where a request with `x-test-user` is logged in. */
async function startApp() {
  const dataDir = mkdtempSync(join(tmpdir(), 'asdas-runtime-'));
  // The page cache off: a request logged in by `x-test-user` carries no session cookie, so the
  // cache would take it for a visitor and answer with an anonymous render of the page.
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    ALLOWED_EXTERNAL_ORIGINS: playOrigin,
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    PAGE_CACHE_TTL_MS: '0',
  });
  const database = await createTestDatabase('sqlite');
  const app = await buildApp({
    config,
    logger: createLogger('warn', { write: () => undefined }),
    database: { db: database.db },
  });
  // After the accounts plugin's own preHandler, which resolves the real (absent) session.
  app.addHook('preHandler', async (request) => {
    if (request.headers['x-test-user']) request.user = testUser;
  });
  await app.ready();
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base,
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// The new-build test runs a real production build (Vite and tsc) and restarts a server twice:
// about a minute on an idle 2-core machine, several on a loaded one, where tap's default of
// 7 minutes per file ran out during the build while nothing was wrong. The bound is the file's.
t.setTimeout(20 * 60_000);

const { base, close } = await startApp();
const browser = await launchBrowser();
t.teardown(async () => {
  await browser.close();
  await close();
});

interface Opened {
  page: Page;
  context: BrowserContext;
  consoleLog: ReturnType<typeof collectConsole>;
  documents: string[];
}

async function newPage(options: { loggedIn?: boolean; storageThrows?: boolean; noPrefetch?: boolean } = {}) {
  const context = await browser.newContext({
    userAgent: browserUserAgent,
    ...(options.loggedIn ? { extraHTTPHeaders: { 'x-test-user': '1' } } : {}),
  });
  if (options.noPrefetch) {
    // A visitor asking to save data gets no link prefetch, so chunks load only when navigating.
    await context.addInitScript(() => {
      Object.defineProperty(navigator, 'connection', { value: { saveData: true }, configurable: true });
    });
  }
  if (options.storageThrows) {
    await context.addInitScript(() => {
      Object.defineProperty(window, 'sessionStorage', {
        get() {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        },
      });
    });
  }
  const page = await context.newPage();
  const consoleLog = collectConsole(page);
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document' && request.frame() === page.mainFrame()) documents.push(request.url());
  });
  return { page, context, consoleLog, documents };
}

async function open(path: string, options: Parameters<typeof newPage>[0] = {}, origin = base): Promise<Opened> {
  const opened = await newPage(options);
  await opened.page.goto(`${origin}${path}`);
  await opened.page.waitForSelector('html[data-hydrated="true"]');
  return opened;
}

const heading = (page: Page) => page.locator('main h1').first().textContent();
const markWindow = (page: Page) =>
  page.evaluate(() => ((window as unknown as { sameWindow: boolean }).sameWindow = true));
const sameWindow = (page: Page) =>
  page.evaluate(() => (window as unknown as { sameWindow?: boolean }).sameWindow === true);

// ---------------------------------------------------------------------------------------------
// New build

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * A copy of the project to deploy twice without touching this checkout's dist/ (other test
 * files serve it meanwhile). Build A is this checkout's current build, copied as is.
 */
function copyProject(): { dir: string; buildA: string } {
  const dir = mkdtempSync(join(tmpdir(), 'asdas-deploy-'));
  const skip = new Set(['node_modules', 'dist', 'builds', 'data', 'test', 'bench', 'coverage', '.git', '.tap']);
  for (const entry of readdirSync(root)) {
    if (!skip.has(entry)) cpSync(join(root, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(realpathSync(join(root, 'node_modules')), join(dir, 'node_modules'), 'dir');
  cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
  const build = JSON.parse(readFileSync(join(dir, 'dist/build.json'), 'utf8')) as { id: string; timestamp: number };
  mkdirSync(join(dir, 'builds/meta'), { recursive: true });
  writeFileSync(join(dir, 'builds/meta', `${build.id}.json`), JSON.stringify({ ...build, prerendered: [] }));
  writeFileSync(join(dir, 'builds/latest.json'), JSON.stringify(build));
  return { dir, buildA: build.id };
}

/** `node dist/node/server.js` in the copy, as operators run it; resolves once /healthz answers. */
async function startServer(dir: string, port: number): Promise<{ child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [join(dir, 'dist/node/server.js')], {
    cwd: dir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_PORT: '0',
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      LOG_LEVEL: 'warn',
      DATA_DIR: join(dir, 'data'),
      BUILD_CHECK_INTERVAL_MS: '1000',
      // Restarted on the same port: no load balancer to drain for.
      SHUTDOWN_DRAIN_MS: '0',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // A start takes seconds on a loaded machine: wait up to a minute, and never leave the child behind.
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (attempt > 600) {
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${stderr}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  return {
    child,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

t.test('a new build: the next navigation is a full load that lands on the new build', async (t) => {
  const { dir, buildA } = copyProject();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let server = await startServer(dir, port);
  t.teardown(() => server.stop());

  // Three tabs open on build A: a link click, Play (navigateTo with a query), and Back.
  const viaLink = await open('/', {}, origin);
  const viaPlay = await open('/bonus', {}, origin);
  const viaBack = await open('/', {}, origin);
  await viaBack.page.click('nav.main-nav a[data-nav="bonus"]');
  await viaBack.page.waitForURL(`${origin}/bonus`);
  for (const tab of [viaLink, viaPlay, viaBack]) {
    t.equal(await tab.page.getAttribute('html', 'data-build-id'), buildA, 'the page runs build A');
    await markWindow(tab.page);
  }
  const polls: string[] = [];
  viaLink.page.on('request', (request) => {
    if (request.url().includes('/builds/latest.json')) polls.push(request.url());
  });

  // Deploy B: a real second build, while the tabs stay open.
  const buildB = `runtime-test-${Date.now()}`;
  const built = await promisify(execFile)(process.execPath, ['scripts/build.mjs'], {
    cwd: dir,
    env: { ...process.env, BUILD_ID: buildB },
  });
  t.match(built.stdout, `built ${buildB}`);
  const latest = (await (await fetch(`${origin}/builds/latest.json`)).json()) as { id: string };
  t.equal(latest.id, buildB, 'the running server serves the new latest.json from disk');
  t.equal((await fetch(`${origin}/builds/meta/${buildB}.json`)).status, 200, 'and its meta file');

  for (const tab of [viaLink, viaPlay, viaBack]) {
    // Polled every second; the wait is for the attribute, bounded generously for a loaded machine.
    await tab.page.waitForSelector(`html[data-outdated-build="${buildB}"]`, { timeout: 120_000 });
  }
  t.pass('every tab noticed the new build (polling every second here)');
  t.ok(
    polls.length > 0 && polls.every((url) => /\/builds\/latest\.json\?\d{13}$/.test(url)),
    'latest.json is polled with a cache-busting query',
  );
  // That polling stops once the new build is seen is test/unit/build-check.test.ts's, with a clock
  // the test moves: here it would take a wait for real seconds.
  t.same(viaLink.documents, [`${origin}/`], 'no reload until the visitor navigates');

  // The deploy finishes: the service restarts on build B (the old process keeps its old
  // index.html and SSR bundle in memory, so only a restart serves the new build).
  await server.stop();
  server = await startServer(dir, port);

  await viaLink.page.click('nav.main-nav a[data-nav="bonus"]');
  await viaLink.page.waitForSelector(`html[data-build-id="${buildB}"][data-hydrated="true"]`);
  t.equal(viaLink.page.url(), `${origin}/bonus`);
  t.same(viaLink.documents, [`${origin}/`, `${origin}/bonus`], 'the link became a document load of its target');
  t.notOk(await sameWindow(viaLink.page), 'a new window: the page was really reloaded');
  t.equal(await heading(viaLink.page), 'How bonuses work');

  await viaPlay.page.click('[data-nav="play"]');
  await viaPlay.page.waitForSelector(`html[data-build-id="${buildB}"][data-hydrated="true"]`);
  t.same(
    viaPlay.documents,
    [`${origin}/bonus`, `${origin}/login?redirect=%2Fplay`],
    'navigateTo: the whole target, query included',
  );

  await viaBack.page.goBack();
  await viaBack.page.waitForSelector(`html[data-build-id="${buildB}"][data-hydrated="true"]`);
  t.equal(viaBack.page.url(), `${origin}/`, 'Back lands where it should');
  t.same(viaBack.documents, [`${origin}/`, `${origin}/`], 'Back on an outdated page reloads the page it goes back to');

  for (const tab of [viaLink, viaPlay, viaBack]) {
    t.same(tab.consoleLog.problems(), [], 'no errors on the way');
    await tab.context.close();
  }
});

// ---------------------------------------------------------------------------------------------
// Chunk load failure

const contentChunk = '**/assets/content-*.js';

async function readMarker(page: Page) {
  return page.evaluate(() => {
    try {
      return JSON.parse(window.sessionStorage.getItem('asdas:reload') ?? 'null') as {
        path: string;
        expires: number;
      } | null;
    } catch {
      return 'storage unavailable';
    }
  });
}

t.test('a page chunk that cannot load: exactly one reload of the target, then the error screen', async (t) => {
  const tab = await open('/', { noPrefetch: true });
  let aborted = 0;
  await tab.context.route(contentChunk, (route) => {
    aborted++;
    return route.abort('failed');
  });
  // The page's clock stands still (timers still run): "the same failure within 10 s" below is then
  // true however slowly a loaded machine gets through the reloads in between.
  const clickedAt = Date.now();
  await tab.page.clock.setFixedTime(clickedAt);
  await tab.page.click('nav.main-nav a[data-nav="bonus"]');
  await tab.page.waitForSelector('[data-testid="error-screen"]');
  await settled(tab.page);
  t.same(tab.documents, [`${base}/`, `${base}/bonus`], 'one reload, of the target');
  t.ok(aborted >= 2, 'the chunk failed before and after the reload');
  const marker = await readMarker(tab.page);
  t.match(marker, { path: '/bonus' }, 'the session marker names the path');
  if (marker && typeof marker === 'object') t.equal(marker.expires, clickedAt + 10_000, 'and lasts 10 s');
  t.match(await tab.page.textContent('[data-testid="error-screen"]'), /Error 500/);
  t.ok(
    tab.consoleLog.messages.some(
      (m) => m.type() === 'error' && m.text().startsWith('error caught during app initialization'),
    ),
    'the failed start is logged',
  );

  // Clear errors (no router on this page: a full load of /), then the same chunk fails again
  // within 10 s during a client navigation: the error screen, no second reload.
  await tab.page.click('text=Clear errors');
  await tab.page.waitForSelector('html[data-hydrated="true"]');
  t.equal(tab.page.url(), `${base}/`);
  await tab.page.click('nav.main-nav a[data-nav="bonus"]');
  await tab.page.waitForSelector('[data-testid="error-screen"]');
  await settled(tab.page);
  t.same(tab.documents, [`${base}/`, `${base}/bonus`, `${base}/`], 'no reload the second time');
  t.equal(tab.page.url(), `${base}/bonus`);
  t.ok(
    tab.consoleLog.messages.some((m) => m.text().startsWith('Произошла ошибка')),
    'logged as a render error',
  );

  // Another page's code is fine: the app still navigates.
  await tab.page.click('text=Clear errors');
  await tab.page.waitForURL(`${base}/`);
  await tab.page.waitForSelector('nav.main-nav a[data-nav="home"]');
  await tab.context.close();
});

t.test('storage that throws: navigation works, a chunk failure still reloads once and never loops', async (t) => {
  const tab = await open('/', { storageThrows: true, noPrefetch: true });
  await markWindow(tab.page);
  await tab.page.click('a[data-nav="login"]');
  await tab.page.waitForURL(`${base}/login`);
  await tab.page.waitForSelector('main h1');
  t.ok(await sameWindow(tab.page), 'client navigation is unaffected');
  t.same(tab.consoleLog.problems(), []);

  await tab.context.route(contentChunk, (route) => route.abort('failed'));
  await tab.page.click('nav.main-nav a[data-nav="bonus"]');
  await tab.page.waitForSelector('[data-testid="error-screen"]');
  await settled(tab.page, 3);
  t.same(tab.documents, [`${base}/`, `${base}/bonus`], 'one reload, no loop');
  t.equal(await readMarker(tab.page), 'storage unavailable');
  await tab.context.close();
});

t.test('a CSS-only preload failure is swallowed; a JavaScript one is left to fail the import', async (t) => {
  const tab = await open('/');
  // A string, not a function: the test runner's transform would add helpers the page lacks.
  const outcome = await tab.page.evaluate(`(() => {
    const fire = (message) => {
      const event = new Event('vite:preloadError', { cancelable: true });
      event.payload = new Error(message);
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    return {
      css: fire('Unable to preload CSS for /assets/content-x.css'),
      js: fire('Failed to fetch dynamically imported module: /assets/content-x.js'),
    };
  })()`);
  t.same(outcome, { css: true, js: false });
  await settled(tab.page);
  t.same(tab.documents, [`${base}/`], 'neither reloads by itself');
  await tab.context.close();
});

// ---------------------------------------------------------------------------------------------
// navigateTo in the page: the app's own module, run by Chromium's URL parser

/** client/lib/navigate.ts and the guard, as plain script for page.evaluate (CSP allows no inline script). */
function guardScript(): string {
  // Keyed by the specifiers the files import each other with.
  const files = {
    navigate: 'client/lib/navigate.ts',
    './navigation-state.ts': 'client/lib/navigation-state.ts',
    '../../contract/navigation-guard.ts': 'contract/navigation-guard.ts',
    './url-views.ts': 'contract/url-views.ts',
  };
  const modules = Object.entries(files).map(([name, file]) => {
    const { outputText } = ts.transpileModule(readFileSync(join(root, file), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    });
    return `${JSON.stringify(name)}: function (module, exports, require) {${outputText}\n}`;
  });
  // The app's router (react-router) stays out: refused targets never reach it.
  modules.push(`"./app-router.ts": function (module, exports) { exports.appRouter = () => null; }`);
  return `(() => {
    const factories = {${modules.join(',\n')}};
    const cache = {};
    const load = (name) => {
      if (!cache[name]) {
        const module = { exports: {} };
        cache[name] = module;
        factories[name](module, module.exports, load);
      }
      return cache[name].exports;
    };
    window.__guardUnderTest = load('navigate');
  })()`;
}

t.test('navigateTo in Chromium: external and script-protocol targets are refused, nothing navigates', async (t) => {
  const tab = await open('/bonus');
  await tab.page.evaluate(guardScript());
  const dialogs: string[] = [];
  tab.page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const attempt = (to: string, options: Record<string, unknown>) =>
    tab.page.evaluate(
      ([target, opts]) => {
        const { navigateTo } = (
          window as unknown as { __guardUnderTest: { navigateTo: (to: string, o: unknown) => Promise<void> } }
        ).__guardUnderTest;
        try {
          void navigateTo(target, opts);
          return { navigated: true };
        } catch (error) {
          return {
            name: (error as Error).name,
            reason: (error as { reason?: string }).reason,
            message: (error as Error).message,
          };
        }
      },
      [to, options] as const,
    );

  const scripts = [
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' \t javascript:alert(1)',
    '\u0001javascript:alert(1)',
    'java\tscript:alert(1)',
    'jav&#x09;ascript:alert(1)',
    'view-source:javascript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'blob:https://play.example/1',
    'vbscript:msgbox(1)',
  ];
  for (const to of scripts) {
    for (const options of [{}, { external: true }]) {
      t.match(
        await attempt(to, options),
        {
          name: 'NavigationRefusedError',
          reason: 'script-protocol',
          message: /^Cannot navigate to a URL with '\w+:' protocol\.$/,
        },
        `${JSON.stringify(to)} ${JSON.stringify(options)}`,
      );
    }
  }
  for (const to of [
    'https://evil.example/',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    `${playOrigin}/launch`,
  ]) {
    t.match(
      await attempt(to, {}),
      { reason: 'external-not-allowed', message: /external: true/ },
      `${to} without external`,
    );
  }
  for (const to of ['https://evil.example/', '//evil.example/x', 'https://play.example.evil.example/']) {
    t.match(
      await attempt(to, { external: true }),
      { reason: 'origin-not-allowed', message: /not on the list of allowed origins/ },
      `${to} with external: true`,
    );
  }
  await settled(tab.page);
  t.equal(tab.page.url(), `${base}/bonus`, 'still on the page');
  t.same(tab.documents, [`${base}/bonus`], 'no navigation happened');
  t.same(dialogs, [], 'no script ran');

  // The allowed origin (ALLOWED_EXTERNAL_ORIGINS) with external: true does leave the site.
  await tab.context.route(`${playOrigin}/**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<h1>play</h1>' }),
  );
  t.same(await attempt(`${playOrigin}/launch?t=1`, { external: true }), { navigated: true });
  await tab.page.waitForURL(`${playOrigin}/launch?t=1`);
  t.pass('an allowed origin is reached');
  await tab.context.close();
});

// ---------------------------------------------------------------------------------------------
// Route middleware, with the way back

t.test(
  'Play when logged out: login with the way back to Play; once logged in, guest sends the visitor on',
  async (t) => {
    const tab = await open('/asdas?page=1');
    await markWindow(tab.page);
    await tab.page.click('[data-nav="play"]');
    await tab.page.waitForURL(`${base}/login?redirect=%2Fplay`);
    t.ok(await sameWindow(tab.page), 'a client navigation (navigateTo in the router)');

    // Logged in now (what a successful login does): the login page sends the visitor on to Play.
    // The stand-in user has no account row, so Play itself is answered here (test/browser/play.test.ts plays for real).
    await tab.context.route('**/api/play', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 503, code: 'UNAVAILABLE', message: 'stub' }),
      }),
    );
    await tab.context.setExtraHTTPHeaders({ 'x-test-user': '1' });
    // The stand-in user exists only for the server (the browser has no token), so the hydrated page
    // soon shows nobody logged in. What this checks is the server's answer to the reload itself:
    // the login document redirected (guest middleware) to /play, read from the request chain
    // (headers only: a document's body may already be gone from the browser's buffer).
    const response = await tab.page.reload();
    const login = response!.request().redirectedFrom();
    t.equal(login?.url(), `${base}/login?redirect=%2Fplay`, 'the reload asked for the login page');
    t.equal((await login!.response())?.status(), 302, 'which the server answered with a redirect');
    t.equal(response!.url(), `${base}/play`, 'to Play');
    t.equal(response!.status(), 200);
    await tab.context.close();
  },
);

t.test(
  'guest in the browser router: a logged-in user taken to registration inside the app stays where they are',
  async (t) => {
    const tab = await open('/', { loggedIn: true });
    await markWindow(tab.page);
    const requested: string[] = [];
    tab.page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    // No page shows a signed-in player a link to registration; Back or Forward to an entry made
    // before logging in is the way there, which the router takes as a navigation like a click.
    await tab.page.evaluate(
      "history.pushState(null, '', '/registration'); dispatchEvent(new PopStateEvent('popstate'))",
    );
    // Home's data is the document's (fresh for 5 s) or one payload: either way the router puts
    // the address back once the page is in place.
    await tab.page.waitForURL(`${base}/`);
    await settled(tab.page);
    t.equal(tab.page.url(), `${base}/`, 'back on the page');
    t.ok(await sameWindow(tab.page), 'all in the client router');
    t.notOk(
      requested.includes('/registration/_payload.json'),
      'the client middleware decided without asking the server',
    );
    t.same(tab.documents, [`${base}/`]);
    t.same(tab.consoleLog.problems(), []);
    await tab.context.close();
  },
);

t.test('guest on the server: the way back is only ever a path on this site', async (t) => {
  const cases: [path: string, lands: string][] = [
    ['/login?redirect=%2Fth%2Fbonus', '/th/bonus'],
    ['/login?redirect=//evil.example', '/'],
    ['/login?redirect=/%5Cevil.example', '/'],
    ['/th/registration?redirect=javascript:alert(1)', '/th'],
    ['/login?redirect=https://evil.example/', '/'],
  ];
  const tab = await newPage({ loggedIn: true });
  for (const [path, lands] of cases) {
    await tab.page.goto(`${base}${path}`);
    await tab.page.waitForSelector('html[data-hydrated="true"]');
    t.equal(tab.page.url(), `${base}${lands}`, `${path} → ${lands}`);
  }
  await tab.context.close();
});

// ---------------------------------------------------------------------------------------------
// Errors on the client

t.test('a start-up failure is logged as "error caught during app initialization"; the server HTML stays', async (t) => {
  const tab = await newPage();
  await tab.context.route(`${base}/bonus`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace('id="asdas-state"', 'id="not-asdas-state"');
    await route.fulfill({ response, body: html });
  });
  const startFailure = tab.page.waitForEvent(
    'console',
    (message) => message.type() === 'error' && message.text().startsWith('error caught during app initialization'),
  );
  await tab.page.goto(`${base}/bonus`);
  await startFailure;
  await settled(tab.page);
  const logged = tab.consoleLog.messages.filter((m) => m.type() === 'error').map((m) => m.text());
  t.match(logged, [/^error caught during app initialization Error: The page is missing its server-rendered state\./]);
  t.equal(await heading(tab.page), 'How bonuses work', 'the server HTML is still readable');
  t.equal(await tab.page.getAttribute('html', 'data-hydrated'), null, 'not hydrated');
  await tab.context.close();
});

t.test('a render failure: logged as "Произошла ошибка" with the error, then the error screen', async (t) => {
  const tab = await open('/', { noPrefetch: true });
  await tab.context.route(
    (url) => url.pathname === '/bonus/_payload.json',
    (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify({ buildId: 'x', data: null }) }),
  );
  await tab.page.click('nav.main-nav a[data-nav="bonus"]');
  await tab.page.waitForSelector('[data-testid="error-screen"]');
  const log = tab.consoleLog.messages.find((m) => m.text().startsWith('Произошла ошибка'));
  t.ok(log, 'logged');
  t.match(log?.text(), /TypeError/, 'with the error');
  t.match(await tab.page.textContent('[data-testid="error-screen"]'), /Error 500.*Internal Server Error/s);
  await tab.page.click('text=Clear errors');
  await tab.page.waitForURL(`${base}/`);
  // The URL changes before React commits the home page; the layout's nav is the home page drawn.
  await tab.page.waitForSelector('nav.main-nav a[data-nav="home"]');
  t.equal(await tab.page.locator('[data-testid="error-screen"]').count(), 0, 'Clear errors (navigateTo) clears it');
  await tab.context.close();
});
