import t from 'tap';
import { browserUserAgent } from '../helpers/app.ts';
import { collectConsole, startBrowserTest } from '../helpers/browser.ts';

// A page served from the page cache (and compressed) hydrates under the strict CSP
// (script-src 'self', no inline script: decision 0013) with nothing reported in the console.
const { base, browser } = await startBrowserTest(t);

t.test('a cached page hydrates under the CSP without console errors', async (t) => {
  for (const path of ['/asdas/rtp-explained', '/th']) {
    // The first visit renders and stores the page (the key includes the browser's Accept-Language).
    const first = await browser.newContext({ userAgent: browserUserAgent });
    const warm = await (await first.newPage()).goto(`${base}${path}`);
    t.equal(warm?.status(), 200);
    await first.close();
    const context = await browser.newContext({ userAgent: browserUserAgent });
    const page = await context.newPage();
    const consoleLog = collectConsole(page);
    const response = await page.goto(`${base}${path}`);
    t.equal(response?.headers()['x-cache'], 'HIT', `${path} came from the cache`);
    t.equal(response?.headers()['content-encoding'], 'br', 'compressed, as a browser asks');
    t.match(response?.headers()['content-security-policy'], /script-src 'self'(;|$)/);
    await page.waitForSelector('html[data-hydrated="true"]');
    t.same(consoleLog.problems(), [], `${path}: no CSP report, no error, no hydration warning`);
    await context.close();
  }
});
