import { existsSync } from 'node:fs';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  Boolean,
) as string[];

export function chromiumPath(): string | undefined {
  return candidates.find((path) => existsSync(path));
}

/** Debian's Chromium, headless; never a downloaded browser. One per test file. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error("Chromium not found: install Debian's `chromium` package (see .ci/run).");
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/**
 * Resolves once the page has drawn a frame and then been idle, `rounds` times over: whatever its
 * code starts in reaction to what just happened (effects, a reload, a prefetch, a fetch) has
 * started by then. The way to check that something did NOT happen without waiting for time.
 * Pages with JavaScript only. (A string, not a function: the test runner's transform would add
 * helpers the page lacks.)
 */
export async function settled(page: Page, rounds = 2): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    await page.evaluate(
      'new Promise((done) => requestAnimationFrame(() => requestIdleCallback(() => done(), { timeout: 5000 })))',
    );
  }
}

/** Collects what a page logs, to assert there are no errors or hydration warnings. */
export function collectConsole(page: Page): { messages: ConsoleMessage[]; problems: () => string[] } {
  const messages: ConsoleMessage[] = [];
  const pageErrors: string[] = [];
  page.on('console', (message) => messages.push(message));
  page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
  return {
    messages,
    problems: () => [
      ...pageErrors,
      ...messages.filter((m) => m.type() === 'error' || m.type() === 'warning').map((m) => `${m.type()}: ${m.text()}`),
    ],
  };
}

/**
 * The usual browser test file: the whole app on a real port and one Chromium, both closed when
 * the file's tests end. Use `app` for anything beyond pages (inject, decorators).
 */
export async function startBrowserTest(
  t: { teardown: (fn: () => Promise<void>) => void },
  env: Record<string, string> = {},
) {
  const { startTestApp } = await import('./app.ts');
  const { app, close } = await startTestApp({ LOG_LEVEL: 'warn', ...env });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await launchBrowser();
  t.teardown(async () => {
    await browser.close();
    await close();
  });
  return { app, base, browser };
}

/**
 * A visitor of the app `startBrowserTest` started: `newContext` opens a browser context at a
 * viewport, with or without JavaScript, signed in with `token` when `user` is set; `visit` opens a
 * path and waits for the app (without JavaScript, for the document) and its fonts.
 */
export function visitors(browser: Browser, base: string, token: string) {
  const newContext = async (
    viewport: { width: number; height: number },
    options: { javaScript?: boolean; user?: boolean } = {},
  ) => {
    const { browserUserAgent } = await import('./app.ts');
    const context = await browser.newContext({
      userAgent: browserUserAgent,
      viewport,
      javaScriptEnabled: options.javaScript ?? true,
    });
    if (options.user) await context.addCookies([{ name: 'token', value: token, url: base }]);
    return context;
  };
  const visit = async (page: Page, path: string, javaScript = true) => {
    const response = await page.goto(`${base}${path}`);
    if (javaScript) await page.waitForSelector('html[data-hydrated="true"]');
    await page.evaluate(() => document.fonts.ready);
    return response;
  };
  return { newContext, visit };
}

/** A payload's address without the `?build=` the browser adds (client/router/payload-url.ts); any other URL as it is. */
export const withoutBuild = (url: string) => url.replace(/(\/_payload\.json)\?build=[^&#]*$/, '$1');

/** Playwright's route matcher for every page payload, whatever its query. */
export const payloadRoutes = (url: URL) => url.pathname.endsWith('/_payload.json');
